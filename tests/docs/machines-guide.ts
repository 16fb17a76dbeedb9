// The guide at the top of docs/machines.md (tests/docs/machines-page.ts).
export const GUIDE = `## Writing a model test

1. Read the requirement the machine implements and write down its states as a user sees them and
   the events that move between them (clicks, server answers, timers). Write the model as a small
   machine of its own in the test file, from that list alone: never import the real machine's
   config, or the model agrees with every bug in it.
2. Give each model state a check of what the real machine, or the real view, must show there
   (\`meta\` or the \`states\` map of \`path.test\`), and each model event a function that causes it
   on the real machine: send the event, or settle a controlled actor call
   (\`controlledActors\` in [\`tests/machines/model-kit.ts\`](../tests/machines/model-kit.ts)), or
   advance a simulated clock.
3. Generate the paths with \`createTestModel\` from \`xstate/graph\`: \`getShortestPaths()\`, or
   \`coveringPaths()\` from the model kit, which extends them so every transition of the model is
   taken. Both key a state by its whole context, so a model with a few counters or flags gives
   thousands of paths that repeat the same steps; pass them through the kit's
   \`essentialPaths(model, paths)\`, which keeps a few of them (chosen greedily) that still visit
   every state, take every transition of the model, take every event from every state value to
   each state value it leads to, reach every context value and make every change of a context
   field that an event makes from a state value. Walk each path as its own test (\`it.each\`),
   and check with the kit's \`machineCoverage\` that the paths also exercised every state and
   transition of the real machine.
4. Pass the paths through the kit's \`documentedPaths(key, paths)\`: it adds a test that their
   number is the one [\`tests/docs/machine-paths.ts\`](../tests/docs/machine-paths.ts) gives, and
   that table is where this page's path counts come from. Set the count the test reports there.
5. Add the machine's rules to [\`tests/docs/machine-rules.ts\`](../tests/docs/machine-rules.ts) and
   run \`npm run docs:machines\` to refresh this page (\`npm test\` fails while it is out of date).

## Planting a fault

To see that a model catches what it should, break the real machine once, locally: invert a guard
in \`setup({ guards })\`, point a transition at the wrong target, or drop an \`onError\`. Run the
machine's model test (\`npx vitest run tests/machines/<name>.machine.test.ts\`): at least one path
must fail, naming the state whose check failed. Undo the fault. A fault no path catches means the
model lacks a state or an event the requirement has.`;
