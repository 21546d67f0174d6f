"""The booking screens: the slot picker (on the quote page and the manage page) and the
page behind the manage link."""
