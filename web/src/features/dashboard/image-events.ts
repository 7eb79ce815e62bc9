import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, answerOf } from '../../api/client';
import type { ImageRecord } from '../../api/schema';

/** How the dashboard learns that an image changed: the live stream, or polling when it is unavailable. */
export type LiveMode = 'connecting' | 'live' | 'polling';

/** How long one stream stays open before a fresh ticket reopens it (the server's default is 600). */
const STREAM_SECONDS = 300;

export const openEventsTicket = () => answerOf(api.POST('/images/events/ticket'));

/**
 * Keeps the Recent images current. Opens GET /api/images/events with a short-lived ticket (an
 * EventSource cannot send the bearer header, and the token never goes into a URL) and refreshes
 * the images and balance queries on each `image` event. When the stream cannot be opened (no
 * EventSource, the ticket refused, the stream failing before it is ready) it answers 'polling'
 * and the caller polls as the spec describes (1 s, 30 tries).
 */
export function useLiveImageStatus(enabled: boolean, onImage?: (image: ImageRecord) => void): LiveMode {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>(enabled ? 'connecting' : 'polling');

  useEffect(() => {
    if (!enabled) return;
    if (typeof EventSource === 'undefined') {
      setMode('polling');
      return;
    }
    let source: EventSource | null = null;
    let stopped = false;
    let reopen: ReturnType<typeof setTimeout> | undefined;

    const open = async () => {
      let ticket: string;
      try {
        ticket = (await openEventsTicket()).ticket;
      } catch {
        if (!stopped) setMode('polling');
        return;
      }
      if (stopped) return;
      const es = new EventSource(`/api/images/events?ticket=${encodeURIComponent(ticket)}&seconds=${STREAM_SECONDS}`);
      source = es;
      let ready = false;
      es.addEventListener('ready', () => {
        ready = true;
        setMode('live');
      });
      es.addEventListener('image', (e) => {
        try {
          onImage?.(JSON.parse((e as MessageEvent<string>).data) as ImageRecord);
        } catch {
          // A malformed event changes nothing; the refresh below still runs.
        }
        void queryClient.invalidateQueries({ queryKey: ['/api/images/'] });
        void queryClient.invalidateQueries({ queryKey: ['/api/tokens/balance'] });
      });
      es.onerror = () => {
        // The server ends each stream after its seconds (and the ticket has expired by then):
        // reopen with a new ticket. A stream that never became ready falls back to polling.
        es.close();
        source = null;
        if (stopped) return;
        if (!ready) {
          setMode('polling');
          return;
        }
        reopen = setTimeout(() => void open(), 1000);
      };
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(reopen);
      source?.close();
    };
  }, [enabled, queryClient, onImage]);

  return mode;
}
