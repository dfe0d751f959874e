-- A web page's upload quota counts an app's uploads of the last hour or day at each page upload: by app and time,
-- not by reading the whole table.
CREATE INDEX upload_file_app_created ON upload_file (app_id, created_at);
