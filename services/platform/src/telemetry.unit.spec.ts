import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { createLogger } from './logger.js';
import { extractTraceContext, injectTraceHeaders, startTelemetry, stopTelemetry, tracer } from './telemetry.js';

describe('telemetry', () => {
  beforeAll(() => startTelemetry('telemetry-test'));
  afterAll(() => stopTelemetry());

  it('writes the active trace into W3C headers and reads it back', () => {
    tracer().startActiveSpan('outer', (span) => {
      const headers = injectTraceHeaders();
      const { traceId, spanId } = span.spanContext();
      assert.equal(headers.traceparent, `00-${traceId}-${spanId}-01`);
      const restored = trace.getSpanContext(extractTraceContext(headers));
      assert.equal(restored?.traceId, traceId);
      span.end();
    });
  });

  it('writes no trace header outside a span', () => {
    assert.deepEqual(
      context.with(context.active(), () => injectTraceHeaders()),
      {},
    );
  });

  it('puts trace and span ids on log lines written inside a span, and redacts secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const testLogger = createLogger('svc', 'info', sink);
    tracer().startActiveSpan('work', (span) => {
      testLogger.info({ password: 'hunter2' }, 'inside');
      span.end();
    });
    const line = JSON.parse(lines.at(-1)!);
    assert.match(line.trace_id, /^[0-9a-f]{32}$/);
    assert.match(line.span_id, /^[0-9a-f]{16}$/);
    assert.equal(line.password, '[redacted]');
    assert.equal(line.service, 'svc');
  });
});
