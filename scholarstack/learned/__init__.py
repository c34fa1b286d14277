"""Small models trained from ../shared/data for the offline backend; weights committed under weights/."""
