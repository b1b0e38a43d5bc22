-- Where the mouth is on a picture, as the user marked it with a click (a pet's mouth cannot be found by the face
-- detector): the middle of the mouth, as fractions of the picture's width and height. NULL: not marked.
ALTER TABLE photos ADD COLUMN mouth_x real;
ALTER TABLE photos ADD COLUMN mouth_y real;
