require_relative 'boot'
require 'rails/all'
