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
