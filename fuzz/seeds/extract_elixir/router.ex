defmodule MyAppWeb.Router do
  use MyAppWeb, :router
  pipeline :browser do
    plug :accepts, ["html"]
  end
  scope "/", MyAppWeb do
    pipe_through [:browser, :auth]
    get "/", PageController, :home
    resources "/users", UserController, only: [:index, :show]
    live "/live", ThermoLive, :index
  end
  def f(x), do: Enum.map(x, &Mod.fun/2) |> List.first
  def g, do: %User{name: 1}
  def h(mod), do: mod.run(1)
end
