"""The API of the fullstack example: rows from Postgres, cached in Redis.

GET /api/items answers from Redis when it has the rows, else from Postgres
(and then keeps them in Redis for a minute); "source" says which.
"""
import json
import os

import psycopg2
import redis
from flask import Flask, jsonify

CACHE_KEY = "items"
CACHE_SECONDS = 60

app = Flask(__name__)
cache = redis.Redis.from_url(os.environ["REDIS_URL"])


def read_items():
    """All rows of items, oldest first."""
    conn = psycopg2.connect(os.environ["DATABASE_URL"])
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT id, name FROM items ORDER BY id")
            return [{"id": row[0], "name": row[1]} for row in cur.fetchall()]
    finally:
        conn.close()


@app.get("/api/items")
def items():
    cached = cache.get(CACHE_KEY)
    if cached is not None:
        return jsonify(items=json.loads(cached), source="redis")
    rows = read_items()
    cache.set(CACHE_KEY, json.dumps(rows), ex=CACHE_SECONDS)
    return jsonify(items=rows, source="postgres")


@app.get("/api/health")
def health():
    return jsonify(ok=True)
