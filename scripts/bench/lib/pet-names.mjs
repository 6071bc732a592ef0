// Names for the search rows: "Pet 123" names share every letter trigram, so no text of three
// letters matches about 1% of them. These are common pet names, each given to about 1% of the
// pets (spread by a hash of the id, not in runs), followed by the id as in "Pet 123".
const NAMES = [
  "Bella", "Max", "Luna", "Charlie", "Lucy", "Cooper", "Daisy", "Milo", "Bailey", "Rocky",
  "Sadie", "Buddy", "Molly", "Tucker", "Stella", "Bear", "Zoey", "Duke", "Penny", "Jack",
  "Lola", "Oliver", "Sophie", "Teddy", "Chloe", "Winston", "Rosie", "Murphy", "Ruby", "Gus",
  "Roxy", "Leo", "Gracie", "Toby", "Coco", "Finn", "Pepper", "Oscar", "Ginger", "Louie",
  "Nala", "Bentley", "Abby", "Zeus", "Lily", "Jax", "Willow", "Riley", "Maggie", "Henry",
  "Ellie", "Koda", "Piper", "Ollie", "Harley", "Bruno", "Layla", "Moose", "Kona", "Diesel",
  "Hazel", "Ranger", "Olive", "Jasper", "Marley", "Apollo", "Mia", "Thor", "Dixie", "Ziggy",
  "Frankie", "Hank", "Honey", "Loki", "Mocha", "Otis", "Pumpkin", "Rusty", "Shadow", "Simba",
  "Tank", "Waffles", "Yoshi", "Biscuit", "Nugget", "Pickles", "Quincy", "Sasha", "Tilly", "Xena",
  "Axel", "Blu", "Cleo", "Dora", "Fudge", "Kiki", "Mango", "Noodle", "Peanut", "Vega",
];

/** The name of pet `id`: one of a hundred, picked by the top bits of a multiplicative hash of the id, and the id. */
export function petName(id) {
  return `${NAMES[Math.floor(((Math.imul(id, 2654435761) >>> 0) / 2 ** 32) * NAMES.length)]} ${id}`;
}

/**
 * Texts of three letters that each name among the hundred has and no other: each matches
 * about 1% of the pets, a different 1%. Lower case, as a user types.
 */
export function onePercentTexts() {
  const owners = new Map();
  for (const name of NAMES) {
    const folded = name.toLowerCase();
    for (let i = 0; i + 3 <= folded.length; i++) {
      const gram = folded.slice(i, i + 3);
      owners.set(gram, (owners.get(gram) ?? new Set()).add(name));
    }
  }
  return [...owners].filter(([, names]) => names.size === 1).map(([gram]) => gram);
}
