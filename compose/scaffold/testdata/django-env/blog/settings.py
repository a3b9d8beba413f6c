SECRET_KEY = "dev"
