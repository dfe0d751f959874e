package dev.hexaflow.domain.campus;

/** The file layouts a campus data set can be given in. */
public enum DataFileFormat { CSV, JSON }
