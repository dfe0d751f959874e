package dev.hexaflow.application.campus.port.out;

import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import java.util.List;

/** Keeps the records of each campus data set, in the order they were given. */
public interface CampusDataRepository {

    /** The records of the data set, in their stored order. */
    List<CampusRecord> findAll(FeedMethod dataSet);

    /** Replaces the whole data set in one transaction: readers see the old set or the new one, never a mix. */
    void replaceAll(FeedMethod dataSet, List<? extends CampusRecord> records);

    int count(FeedMethod dataSet);
}
