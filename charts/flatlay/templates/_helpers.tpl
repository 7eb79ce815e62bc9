{{/* Chart name, truncated to the 63 characters a label allows. */}}
{{- define "flatlay.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name; components append "-<component>". */}}
{{- define "flatlay.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one component's objects: (dict "root" $ "name" "ledger"). */}}
{{- define "flatlay.componentName" -}}
{{- printf "%s-%s" (include "flatlay.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "flatlay.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels every object carries. */}}
{{- define "flatlay.labels" -}}
helm.sh/chart: {{ include "flatlay.chart" . }}
app.kubernetes.io/name: {{ include "flatlay.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: flatlay
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "name" "ledger"). Stable across upgrades. */}}
{{- define "flatlay.selectorLabels" -}}
app.kubernetes.io/name: {{ include "flatlay.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "flatlay.componentLabels" -}}
{{ include "flatlay.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "flatlay.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "flatlay.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The image reference; the tag defaults to the chart's appVersion. A tag may carry a digest (tag@sha256:...). */}}
{{- define "flatlay.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "flatlay.configMapName" -}}
{{- printf "%s-config" (include "flatlay.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
One component's effective settings as YAML: componentDefaults deep-merged under the component.
Helm's merge treats `false` as empty, so booleans the component sets explicitly are re-applied.
Usage: $c := include "flatlay.component" (dict "root" $ "raw" $raw) | fromYaml
*/}}
{{- define "flatlay.component" -}}
{{- $raw := .raw | default dict -}}
{{- $c := mergeOverwrite (deepCopy .root.Values.componentDefaults) (deepCopy $raw) -}}
{{- if hasKey $raw "enabled" }}{{ $_ := set $c "enabled" $raw.enabled }}{{ end -}}
{{- if hasKey $raw "topologySpread" }}{{ $_ := set $c "topologySpread" $raw.topologySpread }}{{ end -}}
{{- range $k := list "service" "pdb" "hpa" "gpu" -}}
{{- $sub := get $raw $k -}}
{{- if and (kindIs "map" $sub) (hasKey $sub "enabled") }}{{ $_ := set (get $c $k) "enabled" (get $sub "enabled") }}{{ end -}}
{{- end -}}
{{- toYaml $c -}}
{{- end -}}

{{/* "host:port" of a component's Service, for <NAME>_ADDR env vars. */}}
{{- define "flatlay.componentAddr" -}}
{{- $raw := get .root.Values.components .name -}}
{{- if not $raw -}}{{- fail (printf "grpcClients names %q, which is not a component" .name) -}}{{- end -}}
{{- $svc := $raw.service | default dict -}}
{{- printf "%s:%v" (include "flatlay.componentName" .) (default $raw.port.number $svc.port) -}}
{{- end -}}

{{/*
A generated secret value, base64-encoded for a Secret's data: the value already in the live Secret
when there is one (so upgrades keep it), else a new random one. Values never hold secrets; the
chart makes what is missing on first install and keeps it (ADR 0303).
Usage: include "flatlay.keptSecretValue" (dict "root" $ "secret" "<name>" "key" "<key>" "new" <fresh value>)
*/}}
{{- define "flatlay.keptSecretValue" -}}
{{- $live := lookup "v1" "Secret" .root.Release.Namespace .secret -}}
{{- $data := (get ($live | default dict) "data") | default dict -}}
{{- if hasKey $data .key -}}
{{- get $data .key -}}
{{- else -}}
{{- .new | b64enc -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding one component's Kafka credentials (keys username, password): (dict "root" $ "name" "ledger"). */}}
{{- define "flatlay.kafkaSecretName" -}}
{{- printf "%s-kafka-%s" (include "flatlay.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Whether one component connects to Kafka as its own user: (dict "root" $ "name" "ledger"). */}}
{{- define "flatlay.kafkaAuth" -}}
{{- if and .root.Values.kafka.auth.enabled (hasKey (.root.Values.kafka.users | default dict) .name) -}}true{{- end -}}
{{- end -}}

{{/*
"true" when a Secret of that name already exists and this release did not make it: one a platform
engineer made (bring your own). The chart then references it and generates nothing in its place.
Usage: include "flatlay.foreignSecret" (dict "root" $ "secret" "<name>")
*/}}
{{- define "flatlay.foreignSecret" -}}
{{- $live := lookup "v1" "Secret" .root.Release.Namespace .secret -}}
{{- if $live -}}
{{- $owner := get (($live.metadata).annotations | default dict) "meta.helm.sh/release-name" -}}
{{- if ne $owner .root.Release.Name }}true{{ end -}}
{{- end -}}
{{- end -}}
