from boundcheck.cli import main

main()
