defmodule DemoWeb.Endpoint do
end
