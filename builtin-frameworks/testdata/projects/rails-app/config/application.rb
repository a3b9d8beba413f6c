module App
  class Application < Rails::Application
  end
end
