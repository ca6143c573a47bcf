// ---------------------------------------------------------------------------------------------
// Several hooks answered by one process (a shared command, D18): each judged by its own contract,
// then answered as the host combines the answers of separate hooks on one call.

// The order in which hosts let one decision override another (Claude Code, Codex, Gemini CLI and
// Copilot CLI all let a denial win over an ask, and either over an allow).
const PRECEDENCE = ['deny', 'ask', 'allow', 'continue'];

// The one answer for `members` (each { contract, judgement }, in the hook document's order), as the
// host would take their separate answers: a block (a fail-closed hook's failure, or a guard part with
// no channel here) blocks the call with every block's line, the other hooks' answers noted as not
// delivered; otherwise the strongest decision wins (deny, ask, allow), the reasons of every denial
// are given, each hook's context is kept, in order, and each hook's extra answers (system messages
// joined, env variables merged in order). Two hooks rewriting one call differently deny it, naming
// both: the build cannot tell which one the host would run, and running either would drop the
// other's. A hook that failed open adds its line; with nothing to answer the exit is its failure's.
// Never throws; the lines of each hook stay its own.
// `anyFailureBlocks`: the host blocks a call on any hook's non-zero exit on this event (Copilot
// CLI's preToolUse), so a hook that failed open blocks here too, with its own exit.
/**
 * @param {{ contract: Contract, judgement: Judgement }[]} members
 * @param {boolean} [anyFailureBlocks]
 * @returns {Decision}
 */
function combined(members, anyFailureBlocks = false) {
  /** @type {string[]} */
  const stderr = [];
  let blocking;
  let failedOpen = false;
  /** @type {{ contract: Contract, judgement: Judgement }[]} */
  const answered = [];
  for (const member of members) {
    const { contract, judgement } = member;
    stderr.push(...judgement.stderr);
    if (judgement.checked !== undefined) {
      answered.push(member);
    } else if (blocksAlone(contract, judgement, anyFailureBlocks)) {
      blocking ??= judgement.code;
    } else if (judgement.code !== 0) {
      failedOpen = true;
    }
  }
  if (blocking !== undefined) {
    for (const { contract, judgement } of answered) {
      const checked = /** @type {CheckedResult} */ (judgement.checked);
      if (saysAnything(checked)) stderr.push(unsaidLine(contract, checked));
    }
    return { code: blocking, stderr, stdout: undefined };
  }
  if (answered.length === 0) {
    return { code: failedOpen ? 1 : 0, stderr, stdout: undefined };
  }
  const { contract, result } = merged(answered);
  const blocked = blockedPart(contract, result);
  if (blocked) {
    return { code: blocked.exit, stderr: [...stderr, blockLine(contract, blocked, result)], stdout: undefined };
  }
  const output = project(contract, result);
  for (const { contract: own, judgement } of answered) {
    const notes = /** @type {string[]} */ (judgement.notes);
    if (notes.length > 0) stderr.push(noteLine(own, notes, /** @type {CheckedResult} */ (judgement.checked), output));
  }
  return { code: 0, stderr, stdout: output };
}

// Whether a hook's judgement blocks the call by itself: a guard part with no channel, a failure of a
// fail-closed hook, or any failure where the host blocks on every one.
/**
 * @param {Contract} contract
 * @param {Judgement} judgement
 * @param {boolean} anyFailureBlocks
 */
function blocksAlone(contract, judgement, anyFailureBlocks) {
  if (judgement.checked !== undefined || judgement.code === 0) return false;
  return judgement.blocks === true || judgement.code === contract.hook.failClosed?.exit || anyFailureBlocks;
}

// The answered hooks' results as one, with a contract to write it by: the first answered hook's,
// whose rule for each part is that of a hook that gave the part (and delivers it, where one does),
// so that a part is written as its own hook's contract says. Every hook of one shared command has
// the same host and native event, so their rules for a part differ only where a hook's canonical
// event drops or refuses it, which its own judgement has already said.
/**
 * @param {{ contract: Contract, judgement: Judgement }[]} answered
 * @returns {{ contract: Contract, result: CheckedResult }}
 */
function merged(answered) {
  const results = answered.map(({ contract, judgement }) => ({ contract, result: /** @type {CheckedResult} */ (judgement.checked) }));
  const outcome = /** @type {CheckedResult['outcome']} */ (
    PRECEDENCE.find((o) => results.some(({ result }) => result.outcome === o)) ?? 'continue');
  const parts = { ...results[0].contract.parts };
  const extras = { ...results[0].contract.extras };
  // The rule of `part` from the hooks that gave it: one that delivers it, else the first.
  const ruleFrom = (part, givers) => {
    const rules = givers.map(({ contract }) => contract.parts?.[part]);
    parts[part] = rules.find((rule) => Array.isArray(rule?.write)) ?? rules[0] ?? parts[part];
  };
  const deniers = results.filter(({ result }) => result.outcome === 'deny');
  let reason = deniers.length === 0 ? undefined : deniers.map(({ result }) => result.reason).join('\n');
  const deciders = results.filter(({ result }) => result.outcome === outcome);
  if (outcome !== 'continue') ruleFrom(outcome, deciders);
  const contexts = results.filter(({ contract, result }) => result.additionalContext !== undefined && delivers(contract, 'additionalContext'));
  const additionalContext = contexts.length === 0 ? undefined : contexts.map(({ result }) => result.additionalContext).join('\n');
  if (contexts.length > 0) ruleFrom('additionalContext', contexts);
  let updatedInput;
  let finalOutcome = outcome;
  const rewriters = results.filter(({ result }) => result.updatedInput !== undefined);
  if (outcome !== 'deny' && rewriters.length > 0) {
    const texts = rewriters.map(({ result }) => canonicalJson(result.updatedInput));
    if (texts.every((text) => text === texts[0])) {
      updatedInput = rewriters[0].result.updatedInput;
      ruleFrom('updatedInput', rewriters);
    } else {
      // Two rewrites of one call: deny it, by the rule of the first hook that rewrote.
      finalOutcome = 'deny';
      const names = rewriters.map(({ contract }) => contract.hook.name).join(', ');
      reason = `the hooks ${names} each rewrote this call differently, and only one rewrite can run, so the call is denied rather than run with either`;
      ruleFrom('deny', rewriters);
    }
  }
  /** @type {{ [name: string]: unknown }} */
  const extra = {};
  for (const { contract, result } of results) {
    for (const [name, value] of Object.entries(result.extra ?? {})) {
      const rule = contract.extras?.[name];
      if (typeof rule?.field !== 'string') continue;
      extras[name] = rule;
      if (name === 'systemMessage' && typeof extra[name] === 'string') {
        extra[name] = `${extra[name]}\n${value}`;
      } else if (name === 'env' && isPlainObject(extra[name])) {
        extra[name] = { .../** @type {object} */ (extra[name]), .../** @type {object} */ (value) };
      } else {
        extra[name] = value;
      }
    }
  }
  const result = checkedParts(
    finalOutcome,
    finalOutcome === 'deny' ? reason : undefined,
    additionalContext,
    updatedInput,
    Object.keys(extra).length === 0 ? undefined : extra,
  );
  return { contract: { ...results[0].contract, parts, extras }, result };
}

// Whether a checked result has anything for the host: a decision, a context, a rewrite or an extra.
/** @param {CheckedResult} result */
function saysAnything(result) {
  return result.outcome !== 'continue' || result.additionalContext !== undefined || result.updatedInput !== undefined
    || Object.keys(result.extra ?? {}).length > 0;
}

// A hook's answer on a call another hook blocked: its denial's reason is still given (the block
// carries it to the model), the rest is not delivered.
/**
 * @param {Contract} contract
 * @param {CheckedResult} checked
 */
function unsaidLine(contract, checked) {
  const { name, target, nativeEvent } = contract.hook;
  const head = `Agent Bundle hook ${checked.outcome === 'deny' ? 'blocked' : 'note'}: ${name} (${target} ${nativeEvent}):`;
  const said = checked.outcome === 'deny'
    ? `the ${author(contract)} denied (${checked.reason}), and another hook of this call blocked it too`
    : 'its answer was not delivered: another hook of this call blocked it';
  return `${head} ${said}`.replace(/\s*\n\s*/g, ' ');
}

// JSON with every object's keys sorted, so that two equal rewrites compare equal.
/** @param {unknown} value */
function canonicalJson(value) {
  return JSON.stringify(value, (_key, item) => (isPlainObject(item)
    ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]]))
    : item));
}
