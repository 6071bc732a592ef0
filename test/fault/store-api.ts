// HTTP calls shared by the crash and disk-trouble tests: plain fetch against a real `serve`.
import { expect } from "vitest";
import type { Pet } from "../../src/contract/values.js";

export interface Api {
  baseUrl: string;
  key: string;
}

/** POST /pets; the response, body unread. */
export function postPet(api: Api, body: { name: string; categoryId: number; status?: string }): Promise<Response> {
  return fetch(`${api.baseUrl}/pets`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** POST /pets expecting 201; the created pet. */
export async function createPet(api: Api, name: string): Promise<Pet> {
  const response = await postPet(api, { name, categoryId: 1 });
  expect(response.status).toBe(201);
  return (await response.json()) as Pet;
}

/** Every pet, following the Link header page by page. */
export async function listAllPets(api: Api): Promise<Pet[]> {
  const pets: Pet[] = [];
  let url: string | undefined = `${api.baseUrl}/pets?limit=100`;
  while (url) {
    const response: Response = await fetch(url, { headers: { authorization: `Bearer ${api.key}` } });
    expect(response.status).toBe(200);
    pets.push(...((await response.json()) as Pet[]));
    url = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1];
  }
  return pets;
}
