// The swarm of tests/js/approvals.test.mjs, shared with the child process that pauses a turn there.
export const DEFINITION = {
  name: 'refunds',
  agents: [
    {
      id: 'support', name: 'Support', entry: true,
      tools: [
        { name: 'lookup', description: 'Look an order up', parameters: { type: 'object', properties: { order: { type: 'string' } } } },
        { name: 'refund', description: 'Refund an order', approval: true, parameters: { type: 'object', properties: { order: { type: 'string' }, amount: { type: 'number' } } } },
      ],
    },
    { id: 'manager', name: 'Manager' },
  ],
  edges: [{ from: 'support', to: 'manager', description: 'Escalate to a manager', approval: true }],
};
