/**
 * Backups of the data directory: take, list, verify and restore.
 */
package dev.hexaflow.application.backup;
