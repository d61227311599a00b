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

