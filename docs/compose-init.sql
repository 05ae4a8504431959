-- The two databases of Ponte (compose.yaml); the official postgres image runs this on first start.
CREATE DATABASE ponte_chat OWNER ponte;
CREATE DATABASE ponte_finance OWNER ponte;
