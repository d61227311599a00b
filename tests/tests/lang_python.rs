//! Python end to end on fixtures: facts (exact: classes, methods, properties, variables,
//! imports, calls with their receivers, hints), the graph, and the resolution (imports through
//! packages and relative imports, `self` along the MRO, `super()`, constructors, typed
//! receivers, module attributes, builtins and packages outside the workspace, unresolved
//! sites named by their text).

use codegraph_tests::{render_call_accounting, render_fixture_facts, render_fixture_resolution};
use expect_test::expect;

const PKG: &str = r#"
//- /src/shop/__init__.py
"""The shop."""
from .models import Item, Cart
from . import util

__all__ = ["Item", "Cart", "util", "make_cart"]


def make_cart() -> "Cart":
    return Cart()
//- /src/shop/models.py
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
//- /src/shop/util.py
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
"#;

#[test]
fn facts() {
    expect![[r#"
        //- src/shop/__init__.py
        sym function make_cart L8-9 exported sig="def make_cart() -> \"Cart\""
        import L2 EsImport ".models" Item Cart
        import L3 EsImport "." util
        call L9:12 Cart in make_cart
        hint L8 make_cart  -> Cart
        //- src/shop/models.py
        sym constant DEFAULT_NAME L10-10 exported sig="DEFAULT_NAME = \"item\""
        sym class Base L13-18 exported sig="class Base"
        sym method Base.save L14-15 exported in=Base sig="def save(self)"
        sym method Base.validate L17-18 exported in=Base sig="def validate(self)"
        sym class Mixin L21-23 exported sig="class Mixin"
        sym method Mixin.validate L22-23 exported in=Mixin sig="def validate(self)"
        sym class Item L27-39 exported sig="@dataclass class Item(Base)" doc="An item."
        sym property Item.name L30-30 exported in=Item sig="name: str = DEFAULT_NAME"
        sym property Item.price L31-31 exported in=Item sig="price: int = 0"
        sym property Item.label L34-35 exported in=Item sig="@property def label(self) -> str"
        sym property Item.label L38-39 exported in=Item sig="@label.setter def label(self, value)"
        sym class Cart L42-67 exported sig="class Cart(Mixin, Base)"
        sym method Cart.__init__ L43-46 exported in=Cart sig="def __init__(self, clock: Optional[Clock] = None)"
        sym property Cart.items L44-44 exported in=Cart sig="self.items: list[Item] = []"
        sym property Cart.clock L45-45 exported in=Cart sig="self.clock = clock"
        sym property Cart.last L46-46 exported in=Cart sig="self.last = Item()"
        sym method Cart.add L48-52 exported in=Cart sig="def add(self, item: Item) -> \"Cart\""
        sym method Cart.total L54-59 exported in=Cart sig="def total(self)"
        sym method Cart.empty L62-63 exported in=Cart sig="@classmethod def empty(cls)"
        sym method Cart.path L66-67 exported in=Cart sig="@staticmethod def path(p)"
        import L3 Package "os.path" *
        import L4 EsImport "dataclasses" dataclass
        import L5 EsImport "typing" TYPE_CHECKING Optional
        import L8 TypeOnly ".util" Clock
        call L15:21 this.validate in Base.save
        call L35:26 self.name.upper in Item.label
        call L46:21 Item in Cart.__init__
        call L49:20 self.items.append in Cart.add
        call L50:14 item.save in Cart.add
        call L51:19 self.last.save in Cart.add
        call L56:16 it.validate in Cart.total
        call L57:14 this.validate in Cart.total
        call L58:17 super.validate in Cart.total
        call L58:9 super in Cart.total
        call L59:16 sum in Cart.total
        call L63:16 this. in Cart.empty
        call L67:24 os.path.join in Cart.path
        ref call L26:2 dataclass in <module>
        ref call L33:6 property in Item
        ref call L37:12 label.setter in Item
        ref call L61:6 classmethod in Cart
        ref call L65:6 staticmethod in Cart
        read L35 this.name in Item.label
        read L37 label.setter in Item
        write L39 this.name in Item.label
        write L44 this.items in Cart.__init__
        write L45 this.clock in Cart.__init__
        write L46 this.last in Cart.__init__
        read L49 this.items in Cart.add
        read L51 this.last in Cart.add
        read L55 this.items in Cart.total
        read L59 i.price in Cart.total
        read L59 this.items in Cart.total
        read L67 os.path in Cart.path
        heritage Item Extends Base
        heritage Cart Extends Mixin
        heritage Cart Extends Base
        hint L15 Base.save  = this.validate()
        hint L30 Item name : str
        hint L31 Item price : int
        hint L34 Item.label  -> str
        hint L43 Cart.__init__ clock : Clock
        hint L44 Cart items : Item[]
        hint L45 Cart clock : Clock
        hint L46 Cart last = Item()
        hint L48 Cart.add item : Item
        hint L48 Cart.add  -> Cart
        hint L55 Cart.total it = self.items.[]
        hint L59 Cart.total  = sum()
        hint L59 Cart.total i = self.items.[]
        hint L63 Cart.empty  = this.()
        hint L67 Cart.path  = os.path.join()
        //- src/shop/util.py
        sym class Clock L6-8 exported sig="class Clock"
        sym method Clock.now L7-8 exported in=Clock sig="def now(self)"
        sym function checkout L11-23 exported sig="def checkout(cart: \"m.Cart\", handlers)"
        import L1 Package "shop.models" * as m
        import L2 EsImport "shop" models
        import L3 EsImport ".models" all
        call L12:22 cart.add().total in checkout
        call L12:10 cart.add in checkout
        call L12:14 Item in checkout
        call L13:17 models.Cart.empty in checkout
        call L14:5 ?.handlers["x"] in checkout
        call L15:19 handlers.get in checkout
        call L16:5 fn in checkout local
        call L17:9 str.join in checkout
        call L18:5 print in checkout
        call L18:11 len in checkout
        call L19:5 undefined_thing in checkout
        call L20:13 Clock in checkout
        call L21:11 clock.now in checkout
        call L22:23 x.now in checkout
        ref call L23:12 checkout in checkout
        read L13 models.Cart in checkout
        hint L11 checkout cart : m.Cart
        hint L11 checkout handlers = ?
        hint L15 checkout fn = handlers.get()
        hint L20 checkout clock = Clock()
        hint L22 checkout x = ?
        hint L23 checkout  = checkout
    "#]].assert_eq(&render_fixture_facts(PKG));
}

#[test]
fn resolution() {
    expect![[r#"
        edge IMPORTS file:src/shop/__init__.py -> file:src/shop/models.py L2 import-resolved 0.95
        edge IMPORTS file:src/shop/__init__.py -> file:src/shop/util.py L3 import-resolved 0.95
        edge IMPORTS file:src/shop/__init__.py -> sym:py:src/shop/models.py:Cart L2 import-resolved 0.95
        edge IMPORTS file:src/shop/__init__.py -> sym:py:src/shop/models.py:Item L2 import-resolved 0.95
        edge IMPORTS file:src/shop/models.py -> file:src/shop/util.py L8 import-resolved 0.95
        edge IMPORTS file:src/shop/models.py -> sym:py:src/shop/util.py:Clock L8 import-resolved 0.95
        edge IMPORTS file:src/shop/util.py -> file:src/shop/__init__.py L2 import-resolved 0.95
        edge IMPORTS file:src/shop/util.py -> file:src/shop/models.py L1 import-resolved 0.95
        edge IMPORTS file:src/shop/util.py -> file:src/shop/models.py L2 import-resolved 0.95
        edge IMPORTS file:src/shop/util.py -> file:src/shop/models.py L3 import-resolved 0.95
        edge CALLS sym:py:src/shop/__init__.py:make_cart -> sym:py:src/shop/models.py:Cart L9 import-resolved 0.95
        edge CALLS sym:py:src/shop/__init__.py:make_cart -> sym:py:src/shop/models.py:Cart.__init__ L9 import-resolved 0.95
        edge CALLS sym:py:src/shop/models.py:Base.save -> sym:py:src/shop/models.py:Base.validate L15 this-dispatch 0.90
        edge EXTENDS sym:py:src/shop/models.py:Cart -> sym:py:src/shop/models.py:Base L42 same-file 0.95
        edge EXTENDS sym:py:src/shop/models.py:Cart -> sym:py:src/shop/models.py:Mixin L42 same-file 0.95
        edge ACCESSES sym:py:src/shop/models.py:Cart.__init__ -> sym:py:src/shop/models.py:Cart.clock L45 this-dispatch 0.90
        edge ACCESSES sym:py:src/shop/models.py:Cart.__init__ -> sym:py:src/shop/models.py:Cart.items L44 this-dispatch 0.90
        edge ACCESSES sym:py:src/shop/models.py:Cart.__init__ -> sym:py:src/shop/models.py:Cart.last L46 this-dispatch 0.90
        edge CALLS sym:py:src/shop/models.py:Cart.__init__ -> sym:py:src/shop/models.py:Item L46 same-file 0.95
        edge CALLS sym:py:src/shop/models.py:Cart.add -> sym:py:src/shop/models.py:Base.save L50 typed-receiver 0.85
        edge CALLS sym:py:src/shop/models.py:Cart.add -> sym:py:src/shop/models.py:Base.save L51 typed-receiver 0.85
        edge ACCESSES sym:py:src/shop/models.py:Cart.add -> sym:py:src/shop/models.py:Cart.items L49 this-dispatch 0.90
        edge ACCESSES sym:py:src/shop/models.py:Cart.add -> sym:py:src/shop/models.py:Cart.last L51 this-dispatch 0.90
        edge CALLS sym:py:src/shop/models.py:Cart.total -> sym:py:src/shop/models.py:Base.validate L56 typed-receiver 0.85
        edge ACCESSES sym:py:src/shop/models.py:Cart.total -> sym:py:src/shop/models.py:Cart.items L55 this-dispatch 0.90
        edge ACCESSES sym:py:src/shop/models.py:Cart.total -> sym:py:src/shop/models.py:Cart.items L59 this-dispatch 0.90
        edge ACCESSES sym:py:src/shop/models.py:Cart.total -> sym:py:src/shop/models.py:Item.price L59 typed-receiver 0.85
        edge CALLS sym:py:src/shop/models.py:Cart.total -> sym:py:src/shop/models.py:Mixin.validate L57 this-dispatch 0.90
        edge CALLS sym:py:src/shop/models.py:Cart.total -> sym:py:src/shop/models.py:Mixin.validate L58 super-dispatch 0.90
        edge EXTENDS sym:py:src/shop/models.py:Item -> sym:py:src/shop/models.py:Base L27 same-file 0.95
        edge ACCESSES sym:py:src/shop/models.py:Item.label -> sym:py:src/shop/models.py:Item.name L35 this-dispatch 0.90
        edge ACCESSES sym:py:src/shop/models.py:Item.label#2 -> sym:py:src/shop/models.py:Item.name L39 this-dispatch 0.90
        edge CALLS sym:py:src/shop/util.py:checkout -> sym:py:src/shop/models.py:Cart.add L12 typed-receiver 0.85
        edge CALLS sym:py:src/shop/util.py:checkout -> sym:py:src/shop/models.py:Cart.empty L13 import-resolved 0.95
        edge CALLS sym:py:src/shop/util.py:checkout -> sym:py:src/shop/models.py:Cart.total L12 typed-receiver 0.85
        edge CALLS sym:py:src/shop/util.py:checkout -> sym:py:src/shop/models.py:Item L12 import-resolved 0.95
        edge CALLS sym:py:src/shop/util.py:checkout -> sym:py:src/shop/util.py:Clock L20 same-file 0.95
        edge CALLS sym:py:src/shop/util.py:checkout -> sym:py:src/shop/util.py:Clock.now L21 typed-receiver 0.85
        unresolved src/shop/models.py:63 self in sym:py:src/shop/models.py:Cart.empty
        unresolved src/shop/util.py:14 handlers["x"] in sym:py:src/shop/util.py:checkout
        unresolved src/shop/util.py:15 handlers.get in sym:py:src/shop/util.py:checkout
        unresolved src/shop/util.py:16 fn in sym:py:src/shop/util.py:checkout
        unresolved src/shop/util.py:19 undefined_thing in sym:py:src/shop/util.py:checkout
        unresolved src/shop/util.py:22 x.now in sym:py:src/shop/util.py:checkout
    "#]].assert_eq(&render_fixture_resolution(PKG));
}

#[test]
fn every_call_site_is_accounted_for() {
    expect![[r#"
        src/shop/__init__.py: 1 calls = 1 CALLS + 0 unresolved + 0 external
        src/shop/models.py: 13 calls = 7 CALLS + 1 unresolved + 5 external
        src/shop/util.py: 14 calls = 6 CALLS + 5 unresolved + 3 external
    "#]]
    .assert_eq(&render_call_accounting(PKG));
}

const WEB: &str = r#"
//- /web/app.py
from flask import Flask
from web.admin import bp
from web import views

app = Flask(__name__)
app.register_blueprint(bp, url_prefix="/admin")
app.add_url_rule("/about", "about", views.about)
app.add_url_rule("/users", view_func=views.UserAPI.as_view("users"))


@app.route("/")
def index():
    return views.about()


@app.route("/items/<int:item_id>", methods=["GET", "POST"])
def item(item_id):
    return str(item_id)
//- /web/admin.py
from flask import Blueprint

bp = Blueprint("admin", __name__, url_prefix="/console")


@bp.get("/stats")
def stats():
    return {}
//- /web/views.py
from flask.views import MethodView


def about():
    return "about"


class UserAPI(MethodView):
    def get(self):
        return []
//- /api/main.py
import requests
from fastapi import FastAPI
from api.routers import items

app = FastAPI()
app.include_router(items.router, prefix="/v1")


@app.get("/health")
async def health():
    return requests.get(f"http://localhost:8000/v1/items/{1}").json()
//- /api/routers/items.py
from fastapi import APIRouter

router = APIRouter(prefix="/items")


@router.get("/{item_id}")
def read_item(item_id: int):
    return {"id": item_id}


@router.post("")
def create_item():
    return {}
//- /site/urls.py
from django.urls import include, path, re_path

from . import views

urlpatterns = [
    path("articles/<int:year>/", views.year_archive, name="archive"),
    re_path(r"^about/(?P<page>[a-z]+)/$", views.AboutView.as_view()),
    path("blog/", include("blog.urls")),
]
//- /blog/urls.py
from django.urls import path

from blog import views

urlpatterns = [path("<slug:slug>/", views.post)]
//- /blog/views.py
def post(request, slug):
    return slug
//- /site/views.py
from django.views import View


def year_archive(request, year):
    return year


class AboutView(View):
    pass
//- /tools/server.py
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
def add(a: int, b: int, ctx=None) -> int:
    """Adds two numbers."""
    return a + b


@mcp.tool(name="sub", description="Subtracts.")
def subtract(a: int, b: int) -> int:
    return a - b
//- /tools/lowlevel.py
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("low")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="fetch",
            description="Fetches a URL.",
            inputSchema={"type": "object", "properties": {"url": {"type": "string"}}},
        )
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    return []
"#;

/// Route, tool, mount and client facts, then what resolution adds: composed routes under
/// mount prefixes (FastAPI joins the router's own prefix; a Flask registration prefix is
/// joined before a blueprint's own, which Flask would replace: a known simplification),
/// handlers named by reference, FETCHES.
#[test]
fn routes_tools_mounts_and_clients() {
    let keep = |text: String, words: &[&str]| -> String {
        text.lines()
            .filter(|l| {
                l.starts_with("//-") || words.iter().any(|w| l.starts_with(w) || l.contains(w))
            })
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let facts = keep(render_fixture_facts(WEB), &["route ", "tool ", "mount ", "client "]);
    expect![[r#"
        //- web/app.py
        call L11:6 app.route in <module>
        call L16:6 app.route in <module>
        route L7 flask ANY /about handler=views.about recv=app in=<module>
        route L8 flask ANY /users handler=views.UserAPI recv=app in=<module>
        route L11 flask GET / handler=sym:index recv=app in=<module>
        route L16 flask GET /items/:item_id handler=sym:item recv=app in=<module>
        route L16 flask POST /items/:item_id handler=sym:item recv=app in=<module>
        mount L6 flask /admin -> bp recv=app in=<module>
        //- web/admin.py
        route L6 flask GET /console/stats handler=sym:stats recv=bp in=<module>
        //- web/views.py
        //- api/main.py
        route L9 fastapi GET /health handler=sym:health recv=app in=<module>
        mount L6 fastapi /v1 -> items.router recv=app in=<module>
        client L11 requests GET /v1/items/:param base in=health
        //- api/routers/items.py
        route L6 fastapi GET /items/:item_id handler=sym:read_item recv=router in=<module>
        route L11 fastapi POST /items handler=sym:create_item recv=router in=<module>
        //- site/urls.py
        route L6 django ANY /articles/:year/ handler=views.year_archive recv=urlpatterns in=<module>
        route L7 django ANY /about/:page/ handler=views.AboutView recv=urlpatterns in=<module>
        mount L8 django /blog/ -> blog.urls.urlpatterns recv=urlpatterns in=<module>
        //- blog/urls.py
        route L5 django ANY /:slug/ handler=views.post recv=urlpatterns in=<module>
        //- blog/views.py
        //- site/views.py
        //- tools/server.py
        call L6:6 mcp.tool in <module>
        call L12:6 mcp.tool in <module>
        tool L6 mcp-sdk add desc="Adds two numbers." fields=[a,b] handler=sym:add recv=mcp in=<module>
        tool L12 mcp-sdk sub desc="Subtracts." fields=[a,b] handler=sym:subtract recv=mcp in=<module>
        //- tools/lowlevel.py
        sym function call_tool L19-20 exported sig="@server.call_tool() async def call_tool(name: str, arguments: dict)"
        call L18:9 server.call_tool in <module>
        hint L19 call_tool name : str
        hint L19 call_tool arguments : dict
        tool L10 mcp-sdk fetch desc="Fetches a URL." fields=[url] handler=sym:call_tool in=list_tools
    "#]].assert_eq(&facts);
    let resolved = keep(render_fixture_resolution(WEB), &["route:", "tool:", "FETCHES"]);
    expect![[r#"
        node route route:api/main.py:GET /v1/items/:item_id L6 "GET /v1/items/:item_id [fastapi] (registered at api/routers/items.py:6, mounted under /v1)"
        node route route:api/main.py:POST /v1/items L6 "POST /v1/items [fastapi] (registered at api/routers/items.py:11, mounted under /v1)"
        node route route:site/urls.py:ANY /blog/:slug/ L8 "ANY /blog/:slug/ [django] (registered at blog/urls.py:5, mounted under /blog/)"
        node route route:web/app.py:GET /admin/console/stats L6 "GET /admin/console/stats [flask] (registered at web/admin.py:6, mounted under /admin)"
        edge CONTAINS file:api/main.py -> route:api/main.py:GET /v1/items/:item_id structural 1.00
        edge CONTAINS file:api/main.py -> route:api/main.py:POST /v1/items structural 1.00
        edge CONTAINS file:site/urls.py -> route:site/urls.py:ANY /blog/:slug/ structural 1.00
        edge CONTAINS file:web/app.py -> route:web/app.py:GET /admin/console/stats structural 1.00
        edge HANDLES_ROUTE route:api/main.py:GET /v1/items/:item_id -> sym:py:api/routers/items.py:read_item L6 same-file 0.95
        edge HANDLES_ROUTE route:api/main.py:POST /v1/items -> sym:py:api/routers/items.py:create_item L6 same-file 0.95
        edge HANDLES_ROUTE route:blog/urls.py:ANY /:slug/ -> sym:py:blog/views.py:post L5 import-resolved 0.95
        edge HANDLES_ROUTE route:site/urls.py:ANY /about/:page/ -> sym:py:site/views.py:AboutView L7 import-resolved 0.95
        edge HANDLES_ROUTE route:site/urls.py:ANY /articles/:year/ -> sym:py:site/views.py:year_archive L6 import-resolved 0.95
        edge HANDLES_ROUTE route:site/urls.py:ANY /blog/:slug/ -> sym:py:blog/views.py:post L8 import-resolved 0.95
        edge HANDLES_ROUTE route:web/app.py:ANY /about -> sym:py:web/views.py:about L7 import-resolved 0.95
        edge HANDLES_ROUTE route:web/app.py:ANY /users -> sym:py:web/views.py:UserAPI L8 import-resolved 0.95
        edge HANDLES_ROUTE route:web/app.py:GET /admin/console/stats -> sym:py:web/admin.py:stats L6 same-file 0.95
        edge FETCHES sym:py:api/main.py:health -> route:api/main.py:GET /v1/items/:item_id L11 url-match 0.70
    "#]].assert_eq(&resolved);
}

const TESTS: &str = r#"
//- /app/core.py
def make_app(name):
    return connect(name)


def connect(name):
    return name


def helper():
    return 1
//- /tests/conftest.py
import pytest
from app.core import make_app


@pytest.fixture
def app():
    return make_app("t")


@pytest.fixture(name="client")
def client_fixture(app):
    return app


def test_in_conftest(app):
    assert helper_of_conftest(app)


@pytest.fixture
def helper_of_conftest(app):
    return app
//- /tests/test_core.py
import unittest
from app.core import helper, connect


def test_uses_fixtures(client):
    assert client


def test_calls_directly():
    assert helper() == 1


class TestCase(unittest.TestCase):
    def test_method(self):
        self.assertTrue(connect("x"))
"#;

/// TESTS: pytest test functions and `unittest.TestCase` methods -> what they call outside
/// test files, and what the fixtures they name call (through fixtures of fixtures, from the
/// nearest `conftest.py`, `name=` honoured).
#[test]
fn tests_through_calls_and_fixtures() {
    let resolved = render_fixture_resolution(TESTS);
    let tests: String =
        resolved.lines().filter(|l| l.contains("TESTS")).map(|l| format!("{l}\n")).collect();
    expect![[r#"
        edge TESTS file:tests/conftest.py -> file:app/core.py import-resolved 0.95
        edge TESTS file:tests/test_core.py -> file:app/core.py import-resolved 0.95
        edge TESTS sym:py:tests/conftest.py:test_in_conftest -> sym:py:app/core.py:make_app L15 import-resolved 0.95
        edge TESTS sym:py:tests/test_core.py:TestCase.test_method -> sym:py:app/core.py:connect L15 import-resolved 0.95
        edge TESTS sym:py:tests/test_core.py:test_calls_directly -> sym:py:app/core.py:helper L10 import-resolved 0.95
        edge TESTS sym:py:tests/test_core.py:test_uses_fixtures -> sym:py:app/core.py:make_app L5 import-resolved 0.95
    "#]].assert_eq(&tests);
}
