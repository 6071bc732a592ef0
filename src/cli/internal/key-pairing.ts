// A key never goes to a host it was not set for. The base URL and the key come in pairs: from
// the command line, the environment, the chosen profile, or the config file's top level. What
// may mix, and what is refused before anything is sent, is decided here (docs/cli.md: "Where it points").

/** Where one half of the pair came from. */
export type Origin = "flag" | "environment" | "profile" | "top level" | "default";

export interface PairInput {
  baseUrl: { value: string; origin: Origin };
  /** Where the key came from; undefined when no key is sent. */
  apiKey: Exclude<Origin, "default"> | undefined;
  /** The chosen profile and what chose it, if any. */
  profile: { name: string; chosenBy: "--env" | "PETSTORE_ENV" } | undefined;
}

/** The typed half that makes a pair explicit, for the half that came from the environment. */
const TYPED = { key: "pass the base URL on the command line (--base-url <url>)", url: "pass the key on the command line (--api-key <key>)" };

/**
 * Why this pair must not be used, or undefined when it may. The leak guarded against is a key
 * sent to a host that came from somewhere implicit (the environment, a profile, the file):
 * - what is typed on the command line is explicit and pairs with anything: `--base-url` takes the
 *   key from PETSTORE_API_KEY (a CI secret, a URL per step), `--api-key` the URL from anywhere;
 * - a chosen profile is a pair: PETSTORE_BASE_URL and PETSTORE_API_KEY may not replace a half of it
 *   (unless the other half is typed, so nothing of the profile is used);
 * - without a profile, PETSTORE_BASE_URL and PETSTORE_API_KEY pair with each other only, except that
 *   PETSTORE_API_KEY alone goes to the default base URL (this machine: the quickstart);
 * - a profile's key never goes to the default base URL (a profile without its base URL);
 * - without a key nothing can leak, so any base URL goes (unless it replaces a chosen profile's).
 */
export function pairingProblem(pair: PairInput): string | undefined {
  const { baseUrl, apiKey, profile } = pair;
  if (baseUrl.origin === "flag" || apiKey === "flag") return undefined;
  if (profile !== undefined && (baseUrl.origin === "environment" || apiKey === "environment")) return profileMixed(pair, profile);
  if (apiKey === undefined) return undefined;
  if (apiKey === "environment" && baseUrl.origin !== "environment" && baseUrl.origin !== "default") {
    return (
      `the key from PETSTORE_API_KEY would be sent to ${baseUrl.value} (${urlOrigin(pair)}), a base URL it was not set with.\n` +
      `To send it there, ${TYPED.key}; or set PETSTORE_BASE_URL with it, or unset PETSTORE_API_KEY.`
    );
  }
  if (baseUrl.origin === "environment" && apiKey !== "environment") {
    return (
      `the key from ${keyOrigin(apiKey, pair)} would be sent to ${baseUrl.value} (from PETSTORE_BASE_URL), a base URL it was not set with.\n` +
      `To send it there, ${TYPED.url}; or set PETSTORE_API_KEY with it, or unset PETSTORE_BASE_URL.`
    );
  }
  if (apiKey === "profile" && baseUrl.origin === "default" && profile !== undefined) {
    return (
      `profile ${profile.name} has an API key but no base URL, so its key would go to the default ${baseUrl.value}.\n` +
      `Set one with: petstore config set base-url <url> --env ${profile.name} (or pass --base-url).`
    );
  }
  return undefined;
}

function profileMixed(pair: PairInput, profile: NonNullable<PairInput["profile"]>): string {
  const variables = [
    pair.baseUrl.origin === "environment" ? "PETSTORE_BASE_URL" : undefined,
    pair.apiKey === "environment" ? "PETSTORE_API_KEY" : undefined,
  ].filter((name) => name !== undefined);
  const sent = pair.apiKey === "environment" ? `; the key from PETSTORE_API_KEY would be sent to ${pair.baseUrl.value}` : "";
  const typed = variables.length > 1 ? "pass the base URL or the key on the command line" : pair.apiKey === "environment" ? TYPED.key : TYPED.url;
  return (
    `${variables.join(" and ")} would replace half of profile ${profile.name} (chosen by ${profile.chosenBy}), ` +
    `whose base URL and key go together${sent}.\n` +
    `To use ${variables.length > 1 ? "them" : "it"}, ${typed}; or unset ${variables.join(" and ")} to use the profile as it is.`
  );
}

function urlOrigin(pair: PairInput): string {
  switch (pair.baseUrl.origin) {
    case "profile":
      return `from profile ${pair.profile?.name} of the config file`;
    case "top level":
      return "from the config file";
    default:
      return `from the ${pair.baseUrl.origin}`;
  }
}

function keyOrigin(origin: "profile" | "top level", pair: PairInput): string {
  return origin === "profile" ? `profile ${pair.profile?.name} of the config file` : "the config file";
}
