# -*- coding: utf-8 -*-
import a.b.c as d, e
from ..x import (y as z, w)
from . import *
x = f"{g(1)!r:>{width()}}" + "é" * 3
lam = lambda q, *r, **s: q(r, **s)
type Alias[T] = list[T]


class Outer[T](Base[T], metaclass=Meta):
    class Inner:
        def m(self, /, a: "Outer" = None, *, b: int | None = None) -> Inner | None:
            return super(Inner, self).m(a)[0]()

    @staticmethod
    async def run(*args):
        async with open_it() as (h, k):
            await h.go()
        for i, (j, k) in enumerate(args):
            yield i
        match args:
            case [Point(x=0), *_]:
                pass


def broken(:
    return 1 +
