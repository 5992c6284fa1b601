import { it } from 'vitest';
import { workflowItem } from '../lib/store/dynamodb/execution-items.ts';
import { engineHarness } from './helpers/engine.ts';
import { ref } from './helpers/fixtures.ts';
it('size', async () => {
  const h = await engineHarness();
  await h.register({ name: 'x', tasks: [
    { name: 'fan', taskReferenceName: 'fan', type: 'FORK_JOIN_DYNAMIC', inputParameters: { forkTaskName: 'crunch', forkTaskInputs: ref('workflow.input.items') } },
    { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' }] });
  for (const n of [1000, 5000]) {
    const items = Array.from({ length: n }, (_, i) => ({ n: i, label: `item-${i}` }));
    const id = await h.start('x', { items });
    const item = workflowItem(await h.run(id));
    console.log(n, 'bodyZ', (item.bodyZ as Uint8Array).byteLength);
  }
  await h.close();
}, 120000);
