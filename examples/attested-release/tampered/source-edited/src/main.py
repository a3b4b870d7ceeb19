print('serving')
print('and a backdoor')
