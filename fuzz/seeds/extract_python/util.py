import shop.models as m
from shop import models
from .models import *


class Clock:
    def now(self):
        return 0


def checkout(cart: "m.Cart", handlers):
    cart.add(Item()).total()
    models.Cart.empty()
    handlers["x"]()
    fn = handlers.get("y")
    fn()
    "-".join([])
    print(len([]))
    undefined_thing()
    clock = Clock()
    clock.now()
    key = lambda x: x.now()
    return checkout
