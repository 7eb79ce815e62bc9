// The chart's Grafana dashboards (charts/flatlay/monitoring/dashboards/*.json), written once here with
// the builders of Grafana's foundation SDK (@grafana/grafana-foundation-sdk, Apache-2.0, ADR 0305):
// the SDK's types are Grafana's own dashboard schema, so a misnamed field, a wrong unit type or a
// missing datasource does not compile, and the JSON is what Grafana itself would save.
// `npm run dashboards:gen` writes the files; scripts/dashboards/dashboards.unit.spec.ts holds the
// committed files equal to what this builds. Queries name only series of docs/operations.md
// "Metrics" (tests/monitoring.int.spec.ts checks them), each scoped to the chosen namespace.
import {
  DashboardBuilder,
  DatasourceVariableBuilder,
  QueryVariableBuilder,
  VariableHide,
  VariableRefresh,
} from '@grafana/grafana-foundation-sdk/dashboard';
import {
  LegendDisplayMode,
  LegendPlacement,
  TooltipDisplayMode,
  VizLegendOptionsBuilder,
  VizTooltipOptionsBuilder,
} from '@grafana/grafana-foundation-sdk/common';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder } from '@grafana/grafana-foundation-sdk/timeseries';
import { join } from 'node:path';

/** Where the chart keeps them (one ConfigMap each, templates/monitoring.yaml). */
export const DASHBOARDS_DIR = join(import.meta.dirname, '..', '..', 'charts', 'flatlay', 'monitoring', 'dashboards');

/** The Prometheus a viewer picks (the dashboards' datasource variable). */
const PROMETHEUS = { type: 'prometheus', uid: ['$', '{datasource}'].join('') };
/** The selector every query carries: one release's namespace at a time. */
const NS = 'namespace="$namespace"';

interface Panel {
  title: string;
  /** Grafana's unit id (reqps, ops, s, short, percentunit). */
  unit: string;
  /** [PromQL, legend] per query, refIds A, B, ... in order. */
  queries: Array<[string, string]>;
}

interface Board {
  uid: string;
  title: string;
  description: string;
  panels: Panel[];
}

const BOARDS: Board[] = [
  {
    uid: 'flatlay-api',
    title: 'Flatlay / API',
    description: "The gateway's HTTP answers and the services' gRPC calls (docs/operations.md, Metrics).",
    panels: [
      {
        title: 'Requests per second by status class',
        unit: 'reqps',
        queries: [
          [
            `sum by (http_response_status_class) (rate(http_server_request_duration_count{${NS}}[$__rate_interval]))`,
            '{{http_response_status_class}}',
          ],
        ],
      },
      {
        title: '5xx ratio (SLO: 99.5% not 5xx)',
        unit: 'percentunit',
        queries: [
          [
            `sum(rate(http_server_request_duration_count{${NS},http_response_status_class="5xx"}[$__rate_interval])) / sum(rate(http_server_request_duration_count{${NS}}[$__rate_interval]))`,
            '5xx ratio',
          ],
        ],
      },
      {
        title: 'p99 latency by route',
        unit: 's',
        queries: [
          [
            `histogram_quantile(0.99, sum by (http_route, le) (rate(http_server_request_duration_bucket{${NS}}[$__rate_interval])))`,
            '{{http_route}}',
          ],
        ],
      },
      {
        title: 'Money routes: p99 latency',
        unit: 's',
        queries: [
          [
            `histogram_quantile(0.99, sum by (http_route, le) (rate(http_server_request_duration_bucket{${NS},http_route=~"/api/payments/.*|/api/images/unlock.*|/api/webhooks/stripe"}[$__rate_interval])))`,
            '{{http_route}}',
          ],
        ],
      },
      {
        title: 'gRPC calls per second by outcome',
        unit: 'reqps',
        queries: [
          [
            `sum by (rpc_service, rpc_grpc_status_code) (rate(rpc_server_call_duration_count{${NS}}[$__rate_interval]))`,
            '{{rpc_service}} {{rpc_grpc_status_code}}',
          ],
        ],
      },
      {
        title: 'gRPC p99 latency by method',
        unit: 's',
        queries: [
          [
            `histogram_quantile(0.99, sum by (rpc_method, le) (rate(rpc_server_call_duration_bucket{${NS}}[$__rate_interval])))`,
            '{{rpc_method}}',
          ],
        ],
      },
      {
        title: 'Payment webhooks by outcome',
        unit: 'reqps',
        queries: [
          [
            `sum by (flatlay_billing_fact, flatlay_outcome) (rate(flatlay_billing_webhooks_total{${NS}}[$__rate_interval]))`,
            '{{flatlay_billing_fact}} {{flatlay_outcome}}',
          ],
        ],
      },
      {
        title: 'Payments and ledger commands by outcome',
        unit: 'ops',
        queries: [
          [
            `sum by (flatlay_payment_kind, flatlay_outcome) (rate(flatlay_billing_payments_total{${NS}}[$__rate_interval]))`,
            'payment {{flatlay_payment_kind}} {{flatlay_outcome}}',
          ],
          [
            `sum by (flatlay_command, flatlay_outcome) (rate(flatlay_ledger_commands_total{${NS}}[$__rate_interval]))`,
            '{{flatlay_command}} {{flatlay_outcome}}',
          ],
        ],
      },
    ],
  },
  {
    uid: 'flatlay-bus',
    title: 'Flatlay / Bus',
    description: "Consumer groups, dead letters and the services' outboxes (docs/operations.md, Metrics).",
    panels: [
      {
        title: 'Consumer lag by group and topic',
        unit: 'short',
        queries: [
          [
            `max by (messaging_consumer_group_name, messaging_destination_name) (flatlay_messaging_consumer_lag{${NS}})`,
            '{{messaging_consumer_group_name}} {{messaging_destination_name}}',
          ],
        ],
      },
      {
        title: 'Deliveries per second by outcome',
        unit: 'ops',
        queries: [
          [
            `sum by (messaging_consumer_group_name, flatlay_outcome) (rate(flatlay_messaging_consumer_messages_total{${NS}}[$__rate_interval]))`,
            '{{messaging_consumer_group_name}} {{flatlay_outcome}}',
          ],
        ],
      },
      {
        title: 'Dead letters (last hour)',
        unit: 'short',
        queries: [
          [
            `sum by (messaging_consumer_group_name, messaging_destination_name) (increase(flatlay_messaging_consumer_messages_total{${NS},flatlay_outcome="dead_lettered"}[1h]))`,
            '{{messaging_consumer_group_name}} {{messaging_destination_name}}',
          ],
        ],
      },
      {
        title: 'Handler p99 duration by group',
        unit: 's',
        queries: [
          [
            `histogram_quantile(0.99, sum by (messaging_consumer_group_name, le) (rate(messaging_process_duration_bucket{${NS}}[$__rate_interval])))`,
            '{{messaging_consumer_group_name}}',
          ],
        ],
      },
      {
        title: 'Outbox backlog by service',
        unit: 'short',
        queries: [[`max by (flatlay_service) (flatlay_outbox_backlog{${NS}})`, '{{flatlay_service}}']],
      },
      {
        title: 'Outbox oldest age by service',
        unit: 's',
        queries: [[`max by (flatlay_service) (flatlay_outbox_oldest_age{${NS}})`, '{{flatlay_service}}']],
      },
      {
        title: 'Outbox rows published per second',
        unit: 'ops',
        queries: [
          [
            `sum by (flatlay_outbox_relay) (rate(flatlay_outbox_published_total{${NS}}[$__rate_interval]))`,
            '{{flatlay_outbox_relay}}',
          ],
        ],
      },
      {
        title: 'Analytics projection lag',
        unit: 's',
        queries: [[`max(flatlay_analytics_projection_lag{${NS}})`, 'analytics']],
      },
    ],
  },
  {
    uid: 'flatlay-gpu',
    title: 'Flatlay / GPU pool and generation queue',
    description: "The generation queue, the GPU workers' slots and the engine's stages (docs/operations.md, Metrics).",
    panels: [
      {
        title: 'Generation jobs by status',
        unit: 'short',
        queries: [
          [`max by (flatlay_job_status) (flatlay_image_generation_queue_depth{${NS}})`, '{{flatlay_job_status}}'],
        ],
      },
      {
        title: 'Longest queue wait',
        unit: 's',
        queries: [[`max(flatlay_image_generation_queue_oldest_wait{${NS}})`, 'oldest wait']],
      },
      {
        title: 'Worker slots busy / limit',
        unit: 'short',
        queries: [
          [`sum(flatlay_image_worker_slots_busy{${NS}})`, 'busy'],
          [`sum(flatlay_image_worker_slots_limit{${NS}})`, 'limit'],
        ],
      },
      {
        title: 'Slot utilisation',
        unit: 'percentunit',
        queries: [
          [
            `sum(flatlay_image_worker_slots_busy{${NS}}) / sum(flatlay_image_worker_slots_limit{${NS}})`,
            'busy / limit',
          ],
        ],
      },
      {
        title: 'Generations per minute by outcome',
        unit: 'short',
        queries: [
          [
            `sum by (flatlay_outcome) (rate(flatlay_image_generation_duration_count{${NS}}[$__rate_interval])) * 60`,
            '{{flatlay_outcome}}',
          ],
        ],
      },
      {
        title: 'Generation p50 / p99 duration',
        unit: 's',
        queries: [0.5, 0.99].map((q) => [
          `histogram_quantile(${q}, sum by (le) (rate(flatlay_image_generation_duration_bucket{${NS},flatlay_outcome="completed"}[$__rate_interval])))`,
          `p${q * 100}`,
        ]),
      },
      {
        title: 'Engine stage p90 duration',
        unit: 's',
        queries: [
          [
            `histogram_quantile(0.9, sum by (flatlay_engine_stage, le) (rate(flatlay_image_engine_stage_duration_bucket{${NS}}[$__rate_interval])))`,
            '{{flatlay_engine_stage}}',
          ],
        ],
      },
      {
        title: 'Work queue lag (image-worker group)',
        unit: 'short',
        queries: [
          [
            `max by (messaging_destination_name) (flatlay_messaging_consumer_lag{${NS},messaging_consumer_group_name="image-worker"})`,
            '{{messaging_destination_name}}',
          ],
        ],
      },
    ],
  },
];

const PANEL_WIDTH = 12;
const PANEL_HEIGHT = 8;

/** One dashboard, as the SDK builds it: two panels a row, each a time series of its queries. */
function build(board: Board) {
  const dashboard = new DashboardBuilder(board.title)
    .uid(board.uid)
    .description(board.description)
    .tags(['flatlay'])
    .readonly()
    .time({ from: 'now-6h', to: 'now' })
    .refresh('1m')
    .timezone('browser')
    .withVariable(new DatasourceVariableBuilder('datasource').label('Prometheus').type('prometheus'))
    .withVariable(
      new QueryVariableBuilder('namespace')
        .label('Namespace')
        .datasource(PROMETHEUS)
        .query({ query: 'label_values(http_server_request_duration_count, namespace)', refId: 'namespace' })
        .definition('label_values(http_server_request_duration_count, namespace)')
        .refresh(VariableRefresh.OnTimeRangeChanged)
        .hide(VariableHide.DontHide),
    );
  board.panels.forEach((p, i) => {
    const panel = new PanelBuilder()
      .id(i + 1)
      .title(p.title)
      .datasource(PROMETHEUS)
      .gridPos({ h: PANEL_HEIGHT, w: PANEL_WIDTH, x: (i % 2) * PANEL_WIDTH, y: Math.floor(i / 2) * PANEL_HEIGHT })
      .unit(p.unit)
      .legend(
        new VizLegendOptionsBuilder()
          .displayMode(LegendDisplayMode.List)
          .placement(LegendPlacement.Bottom)
          .showLegend(true),
      )
      .tooltip(new VizTooltipOptionsBuilder().mode(TooltipDisplayMode.Multi));
    for (const [q, [expr, legend]] of p.queries.entries())
      panel.withTarget(
        new DataqueryBuilder()
          .refId(String.fromCharCode(65 + q))
          .datasource(PROMETHEUS)
          .expr(expr)
          .legendFormat(legend),
      );
    dashboard.withPanel(panel);
  });
  return dashboard.build();
}

/** Every dashboard's file name and its JSON text, as committed. */
export function renderDashboards(): Record<string, string> {
  return Object.fromEntries(BOARDS.map((b) => [`${b.uid}.json`, `${JSON.stringify(build(b), null, 2)}\n`]));
}
