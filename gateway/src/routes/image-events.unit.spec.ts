import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { eventTickets, TICKET_SECONDS } from './image-events.js';

const key = Buffer.alloc(32, 7);
const holder = { userId: 'u-1', token: 'header.payload-with-the-session.signature' };

describe('image events tickets', () => {
  it('name the user and the session that asked for them, for a minute', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const tickets = eventTickets(key, () => now);
    const ticket = tickets.issue(holder);
    assert.deepEqual(tickets.check(ticket), holder);
    now = new Date(now.getTime() + TICKET_SECONDS * 1000);
    assert.equal(tickets.check(ticket), undefined, 'expired');
  });

  it('seal the access token (a ticket in a log hands out nothing) and refuse any change or another key', () => {
    const tickets = eventTickets(key);
    const ticket = tickets.issue(holder);
    const opened = Buffer.from(ticket, 'base64url').toString('latin1');
    assert.ok(!opened.includes('payload-with-the-session') && !ticket.includes('payload'), 'not readable');
    const raw = Buffer.from(ticket, 'base64url');
    raw[raw.length - 1]! ^= 1;
    assert.equal(tickets.check(raw.toString('base64url')), undefined, 'altered');
    assert.equal(eventTickets(Buffer.alloc(32, 8)).check(ticket), undefined, 'another key');
    for (const junk of ['', 'forged.ticket', holder.token]) assert.equal(tickets.check(junk), undefined, junk);
  });
});
