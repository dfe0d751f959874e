/**
 * OpenTelemetry traces, exported over OTLP: a span per run and per node execution (GenAI attributes on model
 * nodes) built from the run's events, a server span per HTTP request that continues the caller's
 * {@code traceparent}, and the node's span made current on the thread that runs it, so that the node's outbound
 * calls name it. Attributes carry ids, types, titles, statuses, model names, token counts and error messages; never
 * a key, a token, a node's inputs or outputs, nor a request's path.
 */
package dev.hexaflow.adapters.traces;
