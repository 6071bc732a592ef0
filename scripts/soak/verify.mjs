// The end of a soak: every write the server acknowledged is there, every delete is gone.

/** GETs (with `client`, a createTraffic of its own) every pet and order the book remembers; returns the counts and the first mismatches. */
export async function verifyBook(book, { call }) {
  const problems = [];
  const checks = [];
  for (const [id, name] of book.live) checks.push(() => expectPet(id, 200, (pet) => pet.name === name && pet.status === "available"));
  for (const [id, name] of book.orderedPets) checks.push(() => expectPet(id, 200, (pet) => pet.name === name && pet.status !== "available"));
  for (const id of book.deleted) checks.push(() => expectPet(id, 404));
  for (const [id, order] of book.orders) {
    checks.push(() =>
      expectAnswer(`/store/orders/${id}`, 200, (body) => body.petId === order.petId && body.status === order.status),
    );
  }

  async function expectPet(id, status, matches) {
    await expectAnswer(`/pets/${id}`, status, matches);
  }
  async function expectAnswer(path, status, matches = () => true) {
    const answer = await call("verify", "GET", path, { expect: [status] });
    if (answer.status !== status || (status === 200 && !matches(answer.json))) {
      if (problems.length < 20) problems.push(`${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
    }
  }

  // In slices: a few hundred requests at a time, not tens of thousands at once.
  for (let i = 0; i < checks.length; i += 200) await Promise.all(checks.slice(i, i + 200).map((check) => check()));
  return {
    pets: book.live.size + book.orderedPets.size,
    deleted: book.deleted.size,
    orders: book.orders.size,
    problems,
  };
}
