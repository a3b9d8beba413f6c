package compose

// openNoFollow is nothing on Windows, where creating a symbolic link
// needs a privilege: see the Unix file.
const openNoFollow = 0
