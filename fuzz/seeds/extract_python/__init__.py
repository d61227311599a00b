"""The shop."""
from .models import Item, Cart
from . import util

__all__ = ["Item", "Cart", "util", "make_cart"]


def make_cart() -> "Cart":
    return Cart()
