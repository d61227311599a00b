//! Elixir end to end on one fixture: facts (exact: modules with full dotted names, functions
//! by name and arity with clauses merged and default arguments expanded, directives, calls
//! with their arity through pipes and captures, behaviours, protocols, structs, Phoenix
//! routes), the graph, and the resolution (aliases expanded, local and imported calls,
//! dependencies' modules ignored, dynamic calls unresolved, route handlers).

use codegraph_parse::Language;
use codegraph_tests::{render_fixture_facts, render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const FIXTURE: &str = r#"
//- /lib/my_app/accounts.ex
defmodule MyApp.Accounts do
  @moduledoc "Accounts."
  alias MyApp.Repo
  alias MyApp.Accounts.{User, Token}
  import MyApp.Helpers, only: [slug: 1]
  @behaviour MyApp.Store

  @doc "Gets a user."
  @spec get(term, keyword) :: term
  def get(id, opts \\ []) do
    id
    |> Repo.fetch(opts)
    |> normalize()
    |> then(&Token.wrap/1)
    slug(id)
    Enum.map([id], &normalize/1)
  end

  defp normalize(nil), do: nil
  defp normalize(user), do: %User{name: user}

  def dynamic(mod), do: mod.run(1)
  def reflect(m, f), do: apply(m, f, [])
  def broken, do: Repo.nope(1)
  def shown(x), do: MyApp.Show.impl_for(x)

  defmacro is_admin(user), do: user

  defmodule User do
    defstruct [:name]
  end
end
//- /lib/my_app/repo.ex
defmodule MyApp.Repo do
  def fetch(id, _opts), do: id
end

defmodule MyApp.Helpers do
  def slug(x), do: x
end

defmodule MyApp.Accounts.Token do
  def wrap(x), do: x
end

defmodule MyApp.Store do
  @callback get(term, keyword) :: term
end

defprotocol MyApp.Show do
  def show(x)
end

defimpl MyApp.Show, for: MyApp.Accounts.User do
  def show(u), do: u.name
end
//- /lib/my_app_web/router.ex
defmodule MyAppWeb.Router do
  use Phoenix.Router

  scope "/", MyAppWeb do
    pipe_through [:browser, :auth]
    get "/", PageController, :home
    resources "/users", UserController, only: [:index, :show] do
      post "/posts", PostController, :create
    end
    scope "/admin", Admin do
      live "/dash", DashLive, :index
    end
  end
end

defmodule MyAppWeb.PageController do
  def home(conn, _params), do: conn
end

defmodule MyAppWeb.UserController do
  def index(conn, _), do: conn
  def show(conn, _), do: conn
end
"#;

#[test]
fn the_registry_knows_it() {
    assert_eq!(Language::from_path("lib/a.ex"), Some(Language::Elixir));
    assert_eq!(Language::from_path("test/a_test.exs"), Some(Language::Elixir));
    assert_eq!((Language::Elixir.as_str(), Language::Elixir.id_tag()), ("elixir", "ex"));
}

#[test]
fn facts_of_elixir_files() {
    expect![[r#"
        //- lib/my_app/accounts.ex
        sym module MyApp.Accounts L1-32 exported name=MyApp.Accounts sig="defmodule MyApp.Accounts" doc="Accounts."
        sym function MyApp.Accounts.get/2 L10-17 exported in=MyApp.Accounts sig="def get(id, opts \\\\ [])" doc="Gets a user."
        sym function MyApp.Accounts.get/1 L10-17 exported in=MyApp.Accounts sig="def get(id, opts \\\\ [])" doc="Gets a user."
        sym function MyApp.Accounts.normalize/1 L19-20 in=MyApp.Accounts sig="defp normalize(nil)"
        sym function MyApp.Accounts.dynamic/1 L22-22 exported in=MyApp.Accounts sig="def dynamic(mod)"
        sym function MyApp.Accounts.reflect/2 L23-23 exported in=MyApp.Accounts sig="def reflect(m, f)"
        sym function MyApp.Accounts.broken/0 L24-24 exported in=MyApp.Accounts sig="def broken"
        sym function MyApp.Accounts.shown/1 L25-25 exported in=MyApp.Accounts sig="def shown(x)"
        sym macro MyApp.Accounts.is_admin/1 L27-27 exported in=MyApp.Accounts sig="defmacro is_admin(user)"
        sym module MyApp.Accounts.User L29-31 exported in=MyApp.Accounts sig="defmodule User"
        sym struct %MyApp.Accounts.User{} L30-30 exported name=%User{} in=MyApp.Accounts.User sig="defstruct [:name]"
        import L3 Module "MyApp.Repo" * as Repo
        import L4 Module "MyApp.Accounts.User" * as User
        import L4 Module "MyApp.Accounts.Token" * as Token
        import L5 Module "MyApp.Helpers" slug/1
        call L12:13 Repo.fetch/2 in MyApp.Accounts.get/2
        call L13:8 normalize/1 in MyApp.Accounts.get/2
        call L14:20 Token.wrap/1 in MyApp.Accounts.get/2
        call L15:5 slug/1 in MyApp.Accounts.get/2
        call L16:10 Enum.map/2 in MyApp.Accounts.get/2
        call L16:21 normalize/1 in MyApp.Accounts.get/2
        call L22:29 mod.run/1 in MyApp.Accounts.dynamic/1
        call L23:26 apply/3 in MyApp.Accounts.reflect/2
        call L24:24 Repo.nope/1 in MyApp.Accounts.broken/0
        call L25:32 MyApp.Show.impl_for/1 in MyApp.Accounts.shown/1
        ref call L20:30 User.__struct__ in MyApp.Accounts.normalize/1
        heritage MyApp.Accounts Implements MyApp.Store
        //- lib/my_app/repo.ex
        sym module MyApp.Repo L1-3 exported name=MyApp.Repo sig="defmodule MyApp.Repo"
        sym function MyApp.Repo.fetch/2 L2-2 exported in=MyApp.Repo sig="def fetch(id, _opts)"
        sym module MyApp.Helpers L5-7 exported name=MyApp.Helpers sig="defmodule MyApp.Helpers"
        sym function MyApp.Helpers.slug/1 L6-6 exported in=MyApp.Helpers sig="def slug(x)"
        sym module MyApp.Accounts.Token L9-11 exported name=MyApp.Accounts.Token sig="defmodule MyApp.Accounts.Token"
        sym function MyApp.Accounts.Token.wrap/1 L10-10 exported in=MyApp.Accounts.Token sig="def wrap(x)"
        sym module MyApp.Store L13-15 exported name=MyApp.Store sig="defmodule MyApp.Store"
        sym interface MyApp.Show L17-19 exported name=MyApp.Show sig="defprotocol MyApp.Show"
        sym function MyApp.Show.show/1 L18-18 exported in=MyApp.Show sig="def show(x)"
        sym module MyApp.Show.MyApp.Accounts.User L21-23 exported name=MyApp.Show.MyApp.Accounts.User sig="defimpl MyApp.Show"
        sym function MyApp.Show.MyApp.Accounts.User.show/1 L22-22 exported in=MyApp.Show.MyApp.Accounts.User sig="def show(u)"
        heritage MyApp.Show.MyApp.Accounts.User Implements MyApp.Show
        //- lib/my_app_web/router.ex
        sym module MyAppWeb.Router L1-14 exported name=MyAppWeb.Router sig="defmodule MyAppWeb.Router"
        sym module MyAppWeb.PageController L16-18 exported name=MyAppWeb.PageController sig="defmodule MyAppWeb.PageController"
        sym function MyAppWeb.PageController.home/2 L17-17 exported in=MyAppWeb.PageController sig="def home(conn, _params)"
        sym module MyAppWeb.UserController L20-23 exported name=MyAppWeb.UserController sig="defmodule MyAppWeb.UserController"
        sym function MyAppWeb.UserController.index/2 L21-21 exported in=MyAppWeb.UserController sig="def index(conn, _)"
        sym function MyAppWeb.UserController.show/2 L22-22 exported in=MyAppWeb.UserController sig="def show(conn, _)"
        import L2 Module "Phoenix.Router"
        route L6 phoenix GET / handler=MyAppWeb.PageController.home/2 mw=[browser,auth] in=MyAppWeb.Router
        route L7 phoenix GET /users handler=MyAppWeb.UserController.index/2 mw=[browser,auth] in=MyAppWeb.Router
        route L7 phoenix GET /users/:id handler=MyAppWeb.UserController.show/2 mw=[browser,auth] in=MyAppWeb.Router
        route L8 phoenix POST /users/:user_id/posts handler=MyAppWeb.PostController.create/2 mw=[browser,auth] in=MyAppWeb.Router
        route L11 phoenix GET /admin/dash handler=MyAppWeb.Admin.DashLive.mount/3 mw=[browser,auth] in=MyAppWeb.Router
    "#]].assert_eq(&render_fixture_facts(FIXTURE));
}

#[test]
fn graph_of_an_elixir_project() {
    expect![[r#"
        node file file:lib/my_app/accounts.ex L1-32
        node file file:lib/my_app/repo.ex L1-23
        node file file:lib/my_app_web/router.ex L1-23
        node route route:lib/my_app_web/router.ex:GET / L6-6 parent=file:lib/my_app_web/router.ex
        node route route:lib/my_app_web/router.ex:GET /admin/dash L11-11 parent=file:lib/my_app_web/router.ex
        node route route:lib/my_app_web/router.ex:GET /users L7-7 parent=file:lib/my_app_web/router.ex
        node route route:lib/my_app_web/router.ex:GET /users/:id L7-7 parent=file:lib/my_app_web/router.ex
        node route route:lib/my_app_web/router.ex:POST /users/:user_id/posts L8-8 parent=file:lib/my_app_web/router.ex
        node struct sym:ex:lib/my_app/accounts.ex:%MyApp.Accounts.User{} L30-30 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.User
        node module sym:ex:lib/my_app/accounts.ex:MyApp.Accounts L1-32 parent=file:lib/my_app/accounts.ex
        node module sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.User L29-31 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.broken/0 L24-24 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.dynamic/1 L22-22 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/1 L10-17 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 L10-17 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node macro sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.is_admin/1 L27-27 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.normalize/1 L19-20 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.reflect/2 L23-23 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node function sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.shown/1 L25-25 parent=sym:ex:lib/my_app/accounts.ex:MyApp.Accounts
        node module sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token L9-11 parent=file:lib/my_app/repo.ex
        node function sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token.wrap/1 L10-10 parent=sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token
        node module sym:ex:lib/my_app/repo.ex:MyApp.Helpers L5-7 parent=file:lib/my_app/repo.ex
        node function sym:ex:lib/my_app/repo.ex:MyApp.Helpers.slug/1 L6-6 parent=sym:ex:lib/my_app/repo.ex:MyApp.Helpers
        node module sym:ex:lib/my_app/repo.ex:MyApp.Repo L1-3 parent=file:lib/my_app/repo.ex
        node function sym:ex:lib/my_app/repo.ex:MyApp.Repo.fetch/2 L2-2 parent=sym:ex:lib/my_app/repo.ex:MyApp.Repo
        node interface sym:ex:lib/my_app/repo.ex:MyApp.Show L17-19 parent=file:lib/my_app/repo.ex
        node module sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User L21-23 parent=file:lib/my_app/repo.ex
        node function sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User.show/1 L22-22 parent=sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User
        node function sym:ex:lib/my_app/repo.ex:MyApp.Show.show/1 L18-18 parent=sym:ex:lib/my_app/repo.ex:MyApp.Show
        node module sym:ex:lib/my_app/repo.ex:MyApp.Store L13-15 parent=file:lib/my_app/repo.ex
        node module sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController L16-18 parent=file:lib/my_app_web/router.ex
        node function sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController.home/2 L17-17 parent=sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController
        node module sym:ex:lib/my_app_web/router.ex:MyAppWeb.Router L1-14 parent=file:lib/my_app_web/router.ex
        node module sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController L20-23 parent=file:lib/my_app_web/router.ex
        node function sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.index/2 L21-21 parent=sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController
        node function sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.show/2 L22-22 parent=sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:%MyApp.Accounts.User{} structural 1.00
        edge CONTAINS file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.User structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.broken/0 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.dynamic/1 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/1 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.is_admin/1 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.normalize/1 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.reflect/2 structural 1.00
        edge DEFINES file:lib/my_app/accounts.ex -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.shown/1 structural 1.00
        edge CONTAINS file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token.wrap/1 structural 1.00
        edge CONTAINS file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Helpers structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Helpers structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Helpers.slug/1 structural 1.00
        edge CONTAINS file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Repo structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Repo structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Repo.fetch/2 structural 1.00
        edge CONTAINS file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Show structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Show structural 1.00
        edge CONTAINS file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User.show/1 structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Show.show/1 structural 1.00
        edge CONTAINS file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Store structural 1.00
        edge DEFINES file:lib/my_app/repo.ex -> sym:ex:lib/my_app/repo.ex:MyApp.Store structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> route:lib/my_app_web/router.ex:GET / structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> route:lib/my_app_web/router.ex:GET /admin/dash structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> route:lib/my_app_web/router.ex:GET /users structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> route:lib/my_app_web/router.ex:GET /users/:id structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> route:lib/my_app_web/router.ex:POST /users/:user_id/posts structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController structural 1.00
        edge DEFINES file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController structural 1.00
        edge DEFINES file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController.home/2 structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.Router structural 1.00
        edge DEFINES file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.Router structural 1.00
        edge CONTAINS file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController structural 1.00
        edge DEFINES file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController structural 1.00
        edge DEFINES file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.index/2 structural 1.00
        edge DEFINES file:lib/my_app_web/router.ex -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.show/2 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.User structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.broken/0 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.dynamic/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.is_admin/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.normalize/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.reflect/2 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.shown/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.User -> sym:ex:lib/my_app/accounts.ex:%MyApp.Accounts.User{} structural 1.00
        edge CONTAINS sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token -> sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token.wrap/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/repo.ex:MyApp.Helpers -> sym:ex:lib/my_app/repo.ex:MyApp.Helpers.slug/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/repo.ex:MyApp.Repo -> sym:ex:lib/my_app/repo.ex:MyApp.Repo.fetch/2 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/repo.ex:MyApp.Show -> sym:ex:lib/my_app/repo.ex:MyApp.Show.show/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User -> sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User.show/1 structural 1.00
        edge CONTAINS sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController.home/2 structural 1.00
        edge CONTAINS sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.index/2 structural 1.00
        edge CONTAINS sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.show/2 structural 1.00
    "#]].assert_eq(&render_fixture_graph(FIXTURE));
}

#[test]
fn calls_resolve_through_aliases_and_imports() {
    expect![[r#"
        edge HANDLES_ROUTE route:lib/my_app_web/router.ex:GET / -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.PageController.home/2 L6 module-name 0.85
        edge HANDLES_ROUTE route:lib/my_app_web/router.ex:GET /users -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.index/2 L7 module-name 0.85
        edge HANDLES_ROUTE route:lib/my_app_web/router.ex:GET /users/:id -> sym:ex:lib/my_app_web/router.ex:MyAppWeb.UserController.show/2 L7 module-name 0.85
        edge IMPORTS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.User L4 module-name 0.85
        edge IMPORTS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token L4 module-name 0.85
        edge IMPORTS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/repo.ex:MyApp.Helpers L5 module-name 0.85
        edge IMPORTS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/repo.ex:MyApp.Repo L3 module-name 0.85
        edge IMPLEMENTS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts -> sym:ex:lib/my_app/repo.ex:MyApp.Store L1 module-name 0.85
        edge CALLS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.normalize/1 L13 same-file 0.95
        edge CALLS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 -> sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.normalize/1 L16 same-file 0.95
        edge CALLS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 -> sym:ex:lib/my_app/repo.ex:MyApp.Accounts.Token.wrap/1 L14 module-name 0.85
        edge CALLS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 -> sym:ex:lib/my_app/repo.ex:MyApp.Helpers.slug/1 L15 module-name 0.85
        edge CALLS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.get/2 -> sym:ex:lib/my_app/repo.ex:MyApp.Repo.fetch/2 L12 module-name 0.85
        edge REFERS_TO sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.normalize/1 -> sym:ex:lib/my_app/accounts.ex:%MyApp.Accounts.User{} L20 module-name 0.85
        edge CALLS sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.shown/1 -> sym:ex:lib/my_app/repo.ex:MyApp.Show L25 module-name 0.85
        edge IMPLEMENTS sym:ex:lib/my_app/repo.ex:MyApp.Show.MyApp.Accounts.User -> sym:ex:lib/my_app/repo.ex:MyApp.Show L21 module-name 0.85
        unresolved lib/my_app/accounts.ex:22 mod.run/1 in sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.dynamic/1
        unresolved lib/my_app/accounts.ex:23 apply/3 in sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.reflect/2
        unresolved lib/my_app/accounts.ex:24 Repo.nope/1 in sym:ex:lib/my_app/accounts.ex:MyApp.Accounts.broken/0
    "#]].assert_eq(&render_fixture_resolution(FIXTURE));
}
