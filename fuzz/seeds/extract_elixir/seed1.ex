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

  defmacro is_admin(user), do: user

  defmodule User do
    defstruct [:name]
  end
end
