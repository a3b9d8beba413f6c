from .api import CofyApi, Module

__all__ = [
    "CofyApi",
    "Module",
]
