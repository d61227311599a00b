import express, { Router } from "express";
import * as util from "./util";
import type { User } from "./types";
export { helper as h } from "./helper";

/** A service. */
export class UserService<T extends User = User> extends Base implements Service {
  private cache = new Map<string, T>();
  constructor(private readonly db: Db) { super(); }
  async find(id: string): Promise<T | undefined> {
    return this.cache.get(id) ?? (await this.db.load(id)) as T;
  }
  static create = (): UserService => new UserService(new Db());
}

export interface Overloads {
  <A>(a: A): A
  <B>(b: B): B
}

export const h: { (x: number): number; (x: string): string } = function (x: any) { return x; };

const router = Router();
router.get("/users/:id", auth, async (req, res) => {
  res.status(200).json({ user: await svc.find(req.params.id) });
});
app.use("/api", router);
describe("UserService", () => { it("finds", () => { expect(util.f()).toBe(1); }); });
enum Color { Red = 1, Green = Red << 1 }
fetch(`/api/users/${id}`, { method: "DELETE" });
