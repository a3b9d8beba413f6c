require('express')().listen(process.env.PORT || 3000)
