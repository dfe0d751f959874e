/**
 * Uploads: a caller's files, kept as blobs and previewed; the runs and chat contexts read them through
 * UploadRepository.
 */
package dev.hexaflow.application.files;
