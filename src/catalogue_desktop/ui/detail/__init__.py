"""The detail pane: one full record, by kind, with links to related records; its pages, the
widgets they are built from (kept from one record to the next), photos and a certificate's tree.

Server text is data: every label that shows it is plain text (see ``plain_labels`` and ``page_links``)."""
