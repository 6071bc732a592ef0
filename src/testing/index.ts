// The entry of `petstore/testing` (package.json "exports", built to dist/testing.js).
export { ChaosSpecError, SeedError, startPetstore, type StartPetstoreOptions, type TestPetstore } from "./start-petstore.js";
