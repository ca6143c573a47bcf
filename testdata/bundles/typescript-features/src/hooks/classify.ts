import type { ToolEvent } from '../lib/types';
import { Assessor, Risk } from '../lib/risk.js';
import { slug } from 'tiny-slug';

const assessor = new Assessor(['rm -rf', 'mkfs']);

export default (event: ToolEvent) => {
  const command = event.toolInput.command ?? '';
  if (assessor.assess(command) === Risk.High) {
    return { outcome: 'deny' as const, reason: `refused ${slug(command)} (weight ${assessor.weight})` };
  }
  return { additionalContext: `risk ${Risk.Low}` };
};
