-- Advanced prompting (#28): a subscriber's short instruction for the generative provider, kept
-- with the image it was given for (NULL: none). Its length is checked before it is stored.
ALTER TABLE images ADD COLUMN instruction text;
