// /chat's data parts and metadata (handoff-graph/server, emitted from js/server/chat.js) as the `ai` package's UIMessage type
// parameters, the way a useChat client declares its messages. Type-checked (never run) by
// tests/js/sdk-types.test.mjs: `tsc -p tests/types/sdk`.
import type { UIMessage } from 'ai';

import type { ChatDataParts, ChatMessageMetadata } from 'handoff-graph/server';

export type SwarmUIMessage = UIMessage<ChatMessageMetadata, ChatDataParts>;

export function describe(message: SwarmUIMessage): string[] {
  const lines: string[] = [];
  if (message.metadata !== undefined) lines.push(`${message.metadata.agent}: ${message.metadata.reason} (version ${message.metadata.session.version})`);
  for (const part of message.parts) {
    if (part.type === 'data-agent') lines.push(`agent ${part.data.name}`);
    else if (part.type === 'data-handoff') lines.push(`${part.data.from} -> ${part.data.to}`);
    else if (part.type === 'data-handoff-blocked') lines.push(`blocked: missing ${part.data.missing.join(', ')}`);
    else if (part.type === 'text') lines.push(part.text);
    // @ts-expect-error: no such data part
    else if (part.type === 'data-handoffs') lines.push('never');
  }
  return lines;
}
