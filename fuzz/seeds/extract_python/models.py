from __future__ import annotations

import os.path
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .util import Clock

DEFAULT_NAME = "item"


class Base:
    def save(self):
        return self.validate()

    def validate(self):
        return True


class Mixin:
    def validate(self):
        return False


@dataclass
class Item(Base):
    """An item."""

    name: str = DEFAULT_NAME
    price: int = 0

    @property
    def label(self) -> str:
        return self.name.upper()

    @label.setter
    def label(self, value):
        self.name = value


class Cart(Mixin, Base):
    def __init__(self, clock: Optional[Clock] = None):
        self.items: list[Item] = []
        self.clock = clock
        self.last = Item()

    def add(self, item: Item) -> "Cart":
        self.items.append(item)
        item.save()
        self.last.save()
        return self

    def total(self):
        for it in self.items:
            it.validate()
        self.validate()
        super().validate()
        return sum(i.price for i in self.items)

    @classmethod
    def empty(cls):
        return cls()

    @staticmethod
    def path(p):
        return os.path.join(p, "cart")
