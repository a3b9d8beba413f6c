// A Gin server in debug mode: its warnings, its routes, then
// "Listening and serving HTTP on :PORT" (gin.Run reads PORT).
package main

import "github.com/gin-gonic/gin"

func main() {
	r := gin.Default()
	r.GET("/", func(c *gin.Context) { c.String(200, "ok") })
	r.Run()
}
