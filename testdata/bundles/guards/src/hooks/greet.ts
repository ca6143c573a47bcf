// Greets new and resumed sessions only (`sources`), not the ones that start after /clear or compaction.
interface SessionStart {
  readonly source?: string;
}

export default ({ source }: SessionStart) => ({ additionalContext: `Session ${source}: run the tests before committing.` });
