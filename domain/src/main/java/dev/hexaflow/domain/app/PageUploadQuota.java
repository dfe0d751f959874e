package dev.hexaflow.domain.app;

/**
 * What a web page's visitors may upload, beside each file's own size limit: an app's key is its operator's and
 * uploads as it likes, but anyone may open a page, and a page hands a token to every visitor who asks.
 *
 * @param perVisitorPerHour uploads one web user may make in an hour (0: no bound)
 * @param appMbPerDay       megabytes all the visitors of one app's page may upload in a day (0: no bound); a
 *                          visitor can ask for a new web user at will, so only a bound per app holds
 */
public record PageUploadQuota(int perVisitorPerHour, int appMbPerDay) {

    /**
     * Twenty an hour: more than a person attaches to a chat; 1 GB a day per app: about seventy 15 MB files, far
     * from filling a disk in a day, and a visitor who means to fill one is stopped there.
     */
    public static final PageUploadQuota DEFAULTS = new PageUploadQuota(20, 1024);

    public PageUploadQuota {
        if (perVisitorPerHour < 0 || appMbPerDay < 0) {
            throw new IllegalArgumentException("page upload quotas must not be negative");
        }
    }

    public long appBytesPerDay() {
        return appMbPerDay * 1024L * 1024L;
    }
}
