// This file has only comments.

// Blank lines above and below.

