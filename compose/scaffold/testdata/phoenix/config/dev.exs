import Config
config :demo, DemoWeb.Endpoint, http: [port: String.to_integer(System.get_env("PORT") || "4000")]
