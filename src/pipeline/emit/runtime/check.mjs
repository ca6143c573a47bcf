// ---------------------------------------------------------------------------------------------
// Checking a result against the contract, and projecting the checked result into the host's answer.

function checkResultValue(given) {
  const value = resultSnapshot(given, '<Agent.Result value>');
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new HookError(`<Agent.Result value> must be a plain object with ${RESULT_VALUE_KEYS.join(', ')}, got ${show(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (key === 'additionalContext') {
      throw new HookError('<Agent.Result value> has no additionalContext: render the text inside <Agent.Context> instead');
    }
    if (!RESULT_VALUE_KEYS.includes(key)) {
      throw new HookError(`<Agent.Result value> has unknown key ${JSON.stringify(key)}; allowed keys are ${RESULT_VALUE_KEYS.join(', ')}`);
    }
  }
  return value;
}

/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @param {unknown} result
 * @returns {CheckedResult}
 */
function checkResult(contract, envelope, result) {
  const where = `${contract.hook.event} on ${contract.host}`;
  if (result === undefined || result === null) {
    return checkedParts('continue');
  }
  if (!isPlainObject(result)) {
    throw new HookError(`the handler returned ${kindOf(result)}; expected nothing or a plain object with ${RESULT_KEYS.join(', ')}`);
  }
  for (const key of Object.keys(result)) {
    if (!RESULT_KEYS.includes(key)) {
      throw new HookError(`the result has unknown key ${JSON.stringify(key)}; allowed keys are ${RESULT_KEYS.join(', ')}`);
    }
  }
  const { reason, additionalContext, updatedInput } = result;
  /** @type {unknown} */
  const outcome = result.outcome ?? 'continue';
  if (outcome === 'stop') {
    throw new HookError('outcome "stop" is not supported: return "deny" with a reason to block, or "continue"');
  }
  if (!OUTCOMES.includes(outcome)) {
    throw new HookError(`outcome must be one of ${OUTCOMES.map((o) => JSON.stringify(o)).join(', ')}, got ${show(outcome)}`);
  }
  if (reason !== undefined && typeof reason !== 'string') {
    throw new HookError(`reason must be a string, got ${show(reason)}`);
  }
  if (outcome !== 'continue') {
    refuseIllegal(contract, where, /** @type {string} */ (outcome));
  }
  if (outcome === 'deny') {
    if (reason === undefined || reason.trim() === '') {
      throw new HookError('a denial needs a non-empty reason: the host shows it to the model');
    }
    const when = contract.denyWhen;
    if (when && own(envelope, when.key) !== when.equals) {
      throw new HookError(`${where} honours a denial only when ${when.key} is ${JSON.stringify(when.equals)}, got ${show(own(envelope, when.key))}`);
    }
  } else if (reason !== undefined) {
    throw new HookError('reason is only accepted with outcome "deny"');
  }
  if (additionalContext !== undefined) {
    if (typeof additionalContext !== 'string') {
      throw new HookError(`additionalContext must be a string, got ${show(additionalContext)}`);
    }
    refuseIllegal(contract, where, 'additionalContext');
  }
  if (updatedInput !== undefined) {
    if (!isPlainObject(updatedInput)) {
      throw new HookError(`updatedInput must be a plain object, got ${show(updatedInput)}`);
    }
    refuseIllegal(contract, where, 'updatedInput');
    if (outcome === 'deny') {
      throw new HookError('updatedInput cannot be combined with a denial');
    }
  }
  return checkedParts(
    /** @type {CheckedResult['outcome']} */ (outcome),
    reason,
    additionalContext,
    updatedInput === undefined ? undefined : nativeRewrite(contract, envelope, updatedInput),
    checkExtra(contract, where, result.extra),
  );
}

// A checked result: every part an own key (undefined when absent) of an object with no prototype.
/**
 * @param {CheckedResult["outcome"]} outcome
 * @param {string} [reason]
 * @param {string} [additionalContext]
 * @param {JsonObject} [updatedInput]
 * @param {CheckedResult["extra"]} [extra]
 * @returns {CheckedResult}
 */
function checkedParts(outcome, reason, additionalContext, updatedInput, extra) {
  return Object.assign(Object.create(null), { outcome, reason, additionalContext, updatedInput, extra });
}

// A result's `extra`: the answers beyond the canonical parts some hosts take (the contract's
// `extras` names every one, with this host's way of taking it), each checked for its type; one the
// page refuses on this event fails the hook, as an illegal part does.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * @param {Contract} contract
 * @param {string} where
 * @param {unknown} extra
 */
function checkExtra(contract, where, extra) {
  if (extra === undefined) return undefined;
  if (!isPlainObject(extra)) {
    throw new HookError(`extra must be a plain object, got ${show(extra)}`);
  }
  const known = Object.keys(contract.extras ?? {});
  const checked = Object.create(null);
  for (const name of Object.keys(extra)) {
    if (!known.includes(name)) {
      throw new HookError(`extra has unknown key ${JSON.stringify(name)}; allowed keys are ${known.join(', ') || 'none here'}`);
    }
    const value = extra[name];
    if (value === undefined) continue;
    const rule = /** @type {ExtraRule} */ (contract.extras?.[name]);
    if (typeof rule.refuse === 'string') {
      throw new HookError(`extra.${name} is not accepted on ${where}: ${rule.refuse}`);
    }
    if (name === 'systemMessage' && (typeof value !== 'string' || value.trim() === '')) {
      throw new HookError(`extra.systemMessage must be a non-empty string, got ${show(value)}`);
    }
    if (name === 'env') {
      if (!isPlainObject(value)) throw new HookError(`extra.env must be a plain object of variables, got ${show(value)}`);
      for (const [variable, text] of Object.entries(value)) {
        if (!ENV_NAME.test(variable)) throw new HookError(`extra.env has the variable name ${JSON.stringify(variable)}, which is not a shell variable's name`);
        if (typeof text !== 'string' || text.includes('\0')) throw new HookError(`extra.env.${variable} must be a string without NUL, got ${show(text)}`);
      }
    }
    checked[name] = value;
  }
  return checked;
}

// Each extra answer of a checked result with its rule on this host event ({ field }, { envFile },
// { drop } or { refuse }) and its value.
/**
 * @param {Contract} contract
 * @param {CheckedResult} checked
 * @returns {[string, ExtraRule, any][]}
 */
function extraRules(contract, checked) {
  return Object.keys(checked.extra ?? {}).map((name) => [name, /** @type {ExtraRule} */ (contract.extras?.[name]), checked.extra?.[name]]);
}

// The `env` answers a host takes as a file of `export` lines it sources later (Claude Code's
// CLAUDE_ENV_FILE): appended to that file; a note when the host named none.
/**
 * @param {Contract} contract
 * @param {CheckedResult} checked
 * @param {string[]} notes
 */
function writeEnvFiles(contract, checked, notes) {
  for (const [name, rule, value] of extraRules(contract, checked)) {
    if (typeof rule.envFile !== 'string') continue;
    const file = services.env(rule.envFile);
    if (typeof file !== 'string' || file === '') {
      notes.push(`extra.${name} (${rule.envFile} is not set, so there is no session file to write)`);
      continue;
    }
    const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;
    const lines = Object.entries(value).map(([variable, text]) => `export ${variable}=${quote(text)}\n`).join('');
    try {
      services.appendFile(file, lines);
    } catch (error) {
      throw new HookError(`the ${name} answer could not be written to ${rule.envFile} (${file}): ${describeError(error)}`);
    }
  }
}

const PART_WORDS = {
  deny: 'a denial',
  allow: 'an explicit allow',
  ask: 'an ask',
  additionalContext: 'additionalContext',
  updatedInput: 'updatedInput',
};

// What the build decided for one part of a result on this host event: { write } (the fields the
// answer sets), { drop }, { refuse } or { block, exit } (a guard part with no channel: the call is
// blocked through the host's blocking exit). Anything else means the wrapper and its runtime
// disagree, an internal error.
/**
 * @param {Contract} contract
 * @param {string} part
 * @returns {PartRule}
 */
function partSupport(contract, part) {
  const support = contract.parts?.[part];
  if (Array.isArray(support?.write) || typeof support?.drop === 'string' || typeof support?.refuse === 'string'
    || (typeof support?.block === 'string' && Number.isInteger(support?.exit) && support.exit !== 0)) {
    return support;
  }
  throw new Error(`the contract has no rule for the result part ${JSON.stringify(part)}`);
}

/**
 * @param {Contract} contract
 * @param {string} where
 * @param {string} part
 */
function refuseIllegal(contract, where, part) {
  const support = partSupport(contract, part);
  if (support.refuse !== undefined) {
    throw new HookError(`${where} cannot take ${PART_WORDS[part]}: ${support.refuse}`);
  }
}

/**
 * @param {Contract} contract
 * @param {string} part
 */
function delivers(contract, part) {
  return partSupport(contract, part).write !== undefined;
}

// The guard part of a checked result (its denial, ask or rewrite) that this host has no channel
// for, where the host blocks on the hook's blocking exit: { part, reason, exit }, or undefined.
/**
 * @param {Contract} contract
 * @param {CheckedResult} result
 */
function blockedPart(contract, result) {
  const parts = [];
  if (result.outcome === 'deny' || result.outcome === 'ask') parts.push(result.outcome);
  if (result.updatedInput !== undefined) parts.push('updatedInput');
  for (const part of parts) {
    const support = partSupport(contract, part);
    if (support.block !== undefined) return { part, reason: support.block, exit: /** @type {number} */ (support.exit) };
  }
  return undefined;
}

/**
 * @param {Contract} contract
 * @param {{ part: string, reason: string, exit: number }} blocked
 * @param {CheckedResult} result
 */
function blockLine(contract, blocked, result) {
  const { name, target, nativeEvent } = contract.hook;
  const what = blocked.part === 'deny' ? `denied (${result.reason})` : `answered ${PART_WORDS[blocked.part]}`;
  return `Agent Bundle hook blocked: ${name} (${target} ${nativeEvent}): the ${author(contract)} ${what}, which ${contract.host} cannot carry here (${blocked.reason}), so the call is blocked rather than let through`.replace(/\s*\n\s*/g, ' ');
}

/// The parts of a checked result this host has no channel for, each with the recorded reason.
/**
 * @param {Contract} contract
 * @param {CheckedResult} result
 * @returns {string[]}
 */
function dropped(contract, result) {
  const notes = [];
  const dropNote = (part) => {
    const { drop } = partSupport(contract, part);
    if (drop !== undefined) notes.push(`${PART_WORDS[part]} (${drop})`);
  };
  if (result.outcome === 'allow' || result.outcome === 'ask') {
    // A rewrite that the host applies only with this decision carries the decision itself.
    const rewrite = result.updatedInput !== undefined ? partSupport(contract, 'updatedInput').write ?? [] : [];
    if (!rewrite.some((write) => write.ifAbsent && write.value === result.outcome)) dropNote(result.outcome);
  }
  if (result.additionalContext !== undefined) dropNote('additionalContext');
  for (const [name, rule] of extraRules(contract, result)) {
    if (typeof rule.drop === 'string') notes.push(`extra.${name} (${rule.drop})`);
  }
  return notes;
}

/// The host-native answer for a checked result, as JSON text, or undefined when there is nothing
/// to say (the host then goes on as if no hook ran; no permission is ever granted by silence). Each
/// delivered part sets the fields its contract rule lists, in a fixed order: context, the decision
/// (deny, allow or ask), the rewrite (whose own decision applies only when none was made).
/**
 * @param {Contract} contract
 * @param {CheckedResult} result
 * @returns {string | undefined}
 */
function project(contract, result) {
  const answer = {};
  const containers = new Set();
  const apply = (part, own) => {
    // Only a part the build delivers is applied (a denial and a rewrite are never dropped).
    for (const write of /** @type {AnswerWrite[]} */ (partSupport(contract, part).write)) {
      const keys = write.path.split('.');
      let object = answer;
      for (const key of keys.slice(0, -1)) {
        if (!Object.hasOwn(object, key)) {
          const named = contract.eventNamed;
          object[key] = key === named?.object ? { [named.key]: contract.hook.nativeEvent } : {};
          containers.add(object[key]);
        }
        object = object[key];
      }
      const field = /** @type {string} */ (keys.at(-1));
      if (!(write.ifAbsent && Object.hasOwn(object, field))) {
        object[field] = Object.hasOwn(write, 'value') ? write.value : own;
      }
    }
  };
  if (result.additionalContext !== undefined && delivers(contract, 'additionalContext')) {
    apply('additionalContext', result.additionalContext);
  }
  if (result.outcome === 'deny') {
    apply('deny', result.reason);
  } else if ((result.outcome === 'allow' || result.outcome === 'ask') && delivers(contract, result.outcome)) {
    apply(result.outcome);
  }
  if (result.updatedInput !== undefined) {
    apply('updatedInput', result.updatedInput);
  }
  // Extra answers a host takes as top-level fields, beside the parts' (which they never replace).
  for (const [, rule, value] of extraRules(contract, result)) {
    if (typeof rule.field === 'string' && !Object.hasOwn(answer, rule.field)) answer[rule.field] = value;
  }
  if (Object.keys(answer).length === 0) return undefined;
  // Keys sorted in every object the answer's fields made; a value the handler gave stays as it is.
  const sorted = (object) => Object.fromEntries(
    Object.keys(object).sort().map((key) => [key, containers.has(object[key]) ? sorted(object[key]) : object[key]]),
  );
  // ASCII only: every character past U+007E as its `\u` escape (a pair of them past U+FFFF), which
  // any JSON reader reads back unchanged, so that no shell between the wrapper and the host that
  // re-encodes what a program prints (Windows PowerShell, in the console's code page) changes it.
  return JSON.stringify(sorted(answer)).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
