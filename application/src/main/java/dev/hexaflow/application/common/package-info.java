/**
 * What every context shares: the one refusal type (ApiError, ApiException), the end user's id check, text
 * limits, the storage's health and the refusals it brings, time-ordered ids, and the ports for blobs, secrets and
 * signatures. It knows no context.
 */
package dev.hexaflow.application.common;
