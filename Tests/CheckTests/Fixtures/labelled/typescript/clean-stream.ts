import { startSession, sendMessage, streamEvents } from "./agents";

export async function ask(question: string): Promise<void> {
  const sessionId = await startSession();
  const events = await streamEvents(sessionId);
  await sendMessage(sessionId, question);
  for await (const event of events) {
    console.log(`event ${event.type}: ${JSON.stringify(event)}`);
  }
}
