import express from 'express'
import { greet } from '@acme/shared'

const app = express()
app.get('/api/hello', (_req, res) => res.json({ message: greet('world') }))

const port = process.env.PORT ?? 4000
app.listen(port, () => console.log(`api listening on http://localhost:${port}`))
