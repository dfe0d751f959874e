/**
 * Completion webhooks: a finished run's callback, kept, signed, delivered with retries and redelivered on
 * request.
 */
package dev.hexaflow.application.webhooks;
